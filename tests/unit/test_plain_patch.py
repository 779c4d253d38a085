"""A PATCH body checked without marshmallow (``plain_patch``) loads exactly as
``TranslationPatch`` loads it; every body it is unsure of is left to the schema."""

import pytest
from marshmallow import ValidationError

from loko.fields import MAX_FILE_NAME, MAX_KEY, MAX_VALUE
from loko.translations.schemas import TranslationPatch, load_patch, plain_patch


def body(key="greeting", file_name="app/messages", **updates):
    return {"key": key, "fileName": file_name, "updates": updates or {"de": {"value": "Hallo"}}}


ACCEPTED = [
    body(),
    body(de={"value": "Hallo", "expected": "Hi"}),
    body(de={"value": "", "expected": None}),
    body(en={"value": "Hello"}, de={"value": "Hallo"}, pt_br={"value": "Olá"}),
    body(**{"zh-hant-tw": {"value": "你好"}, "EN": {"value": "Hi"}}),
    body(key="k" * MAX_KEY, file_name="f" * MAX_FILE_NAME, de={"value": "v" * MAX_VALUE}),
    body(key="a key with inner  spaces", file_name="a b/c.d", de={"value": "line\nbreak\tand tab"}),
]

REFUSED = [
    body(key=""),
    body(key=" greeting"),
    body(key="tab\there"),
    body(key="k" * (MAX_KEY + 1)),
    body(key=1),
    body(file_name=""),
    body(file_name="/app"),
    body(file_name="app//messages"),
    body(file_name="app/../messages"),
    body(file_name="app\\messages"),
    body(file_name="f" * (MAX_FILE_NAME + 1)),
    body(file_name=None),
    body(de={"value": "v" * (MAX_VALUE + 1)}),
    body(de={"value": None}),
    body(de={"value": 1}),
    body(de={"expected": "x"}),
    body(de={"value": "v", "expected": "x" * (MAX_VALUE + 1)}),
    body(de={"value": "v", "expected": 1}),
    body(de={"value": "v", "extra": 1}),
    body(de="Hallo"),
    body(xx={"value": "v"}),
    body(**{"d e": {"value": "v"}}),
    body(**{"en": {"value": "a"}, "EN": {"value": "b"}}),
    {"key": "greeting", "fileName": "app", "updates": {}},
    {"key": "greeting", "fileName": "app", "updates": []},
    {"key": "greeting", "fileName": "app"},
    {**body(), "extra": 1},
    {},
]


@pytest.mark.parametrize("data", ACCEPTED)
def test_a_common_body_loads_as_the_schema_loads_it(data):
    assert plain_patch(data) == TranslationPatch().load(data)


@pytest.mark.parametrize("data", ACCEPTED)
def test_a_loaded_body_keeps_the_languages_order(data):
    assert list(plain_patch(data)["updates"]) == list(TranslationPatch().load(data)["updates"])


@pytest.mark.parametrize("data", REFUSED)
def test_a_body_the_schema_refuses_is_left_to_the_schema(data):
    assert plain_patch(data) is None
    with pytest.raises(ValidationError):
        load_patch(data)
