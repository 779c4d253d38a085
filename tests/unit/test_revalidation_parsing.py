"""What the revalidation middleware reads of a request before Flask: the Bearer key and the
export query, parsed as the Flask handler parses them."""

import pytest

from loko.auth.tokens import bearer_key
from loko.exports.revalidation import query_of
from loko.exports.service import ExportQuery


def test_no_query_string_is_the_default_export():
    assert query_of("") == ExportQuery()


def test_the_query_string_maps_to_the_export_query_as_the_handler_maps_it():
    assert query_of("language=de,fr&fileName=home&fileName=about&zip=true&inherit=false") == ExportQuery(
        zip=True, languages=("de", "fr"), file_names=("home", "about"), inherit=False
    )


@pytest.mark.parametrize(
    "query_string", ["format=xml", "zip=maybe", "page=1", "language=english", "fileName=%00"]
)
def test_a_query_string_the_handler_refuses_is_left_to_it(query_string):
    assert query_of(query_string) is None


@pytest.mark.parametrize(
    ("header", "key"),
    [
        ("Bearer loko_abc", "loko_abc"),
        ("bearer  loko_abc ", "loko_abc"),
        ("Bearer other_abc", None),
        ("Basic loko_abc", None),
        ("", None),
    ],
)
def test_the_bearer_key_is_read_as_the_identity_step_reads_it(header, key):
    assert bearer_key(header) == key
