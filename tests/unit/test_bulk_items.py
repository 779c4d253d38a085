"""The bulk-upsert item list loads exactly as a plain ``List(Nested(KeyValue))`` would."""

import pytest
from marshmallow import Schema, ValidationError, fields

from loko.fields import MAX_KEY, MAX_VALUE
from loko.translations.schemas import KeyValue, KeyValueList

VALID = {"key": "a.b", "value": "Grüße {{name}}"}
ITEMS = [
    VALID,
    {"key": "k" * MAX_KEY, "value": "v" * MAX_VALUE},
    {"key": "k", "value": ""},
    {"key": "k" * (MAX_KEY + 1), "value": "v"},
    {"key": "k", "value": "v" * (MAX_VALUE + 1)},
    {"key": "", "value": "v"},
    {"key": "tab\there", "value": "v"},
    {"key": "k", "value": "line\nbreak\tand tab"},
    {"key": "k"},
    {"value": "v"},
    {"key": "k", "value": "v", "extra": 1},
    {"key": 1, "value": "v"},
    {"key": "k", "value": None},
    {"key": "k", "value": ["v"]},
    "not an object",
    None,
    ["k", "v"],
]


class Plain(Schema):
    items = fields.List(fields.Nested(KeyValue))


class Quick(Schema):
    items = KeyValueList()


def outcome(schema: Schema, items):
    try:
        return "ok", schema.load({"items": items})
    except ValidationError as error:
        return "error", error.messages


@pytest.mark.parametrize("item", ITEMS, ids=repr)
def test_one_item_loads_as_the_nested_schema_loads_it(item):
    assert outcome(Quick(), [VALID, item]) == outcome(Plain(), [VALID, item])


@pytest.mark.parametrize("items", [[], "not a list", {"key": "k", "value": "v"}, None], ids=repr)
def test_a_list_that_is_not_a_list_of_items_loads_as_the_nested_schema_loads_it(items):
    assert outcome(Quick(), items) == outcome(Plain(), items)
