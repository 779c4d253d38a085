"""The client's copy of the format table agrees with the server's registry."""

import pytest

from loko.client import formats
from loko.formats.registry import FORMAT_NAMES, format_module


def test_client_knows_every_server_format():
    assert set(formats.FORMAT_NAMES) == set(FORMAT_NAMES)


@pytest.mark.parametrize("name", FORMAT_NAMES)
def test_extension_and_layout_match_the_server(name):
    module = format_module(name)
    assert formats.extension_of(name) == module.EXTENSION
    assert formats.is_multilingual(name) == getattr(module, "MULTILINGUAL", False)


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("l/{language}/{fileName}.json", "json"),
        ("a/b.PO", "po"),
        ("x.yaml", "yaml"),
        ("noext", None),
        ("a.txt", None),
    ],
)
def test_format_of_path_goes_by_the_extension(path, expected):
    assert formats.format_of_path(path) == expected
