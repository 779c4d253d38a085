"""The apply's items load the same by the plain items' quick check as by the nested schema,
and an item the quick check does not take is named by the nested schema's error."""

import pytest
from marshmallow import ValidationError

from loko.replace.schemas import ReplaceItem, ReplaceRequest

BODY = {"find": "a", "replace": "b", "dryRun": False}


def test_plain_items_load_as_the_nested_schema_loads_them():
    items = [
        {"translationId": f"id-{n}", "language": language, "expected": f"value {n}"}
        for n, language in enumerate(["de", "pt_br", "DE", "zh-hant"] * 3)
    ]
    loaded = ReplaceRequest().load({**BODY, "items": items})["items"]
    assert loaded == [ReplaceItem().load(item) for item in items]
    assert {item["language"] for item in loaded} == {"de", "pt-BR", "zh-Hant"}


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ({"translationId": "", "language": "de", "expected": "x"}, "translationId"),
        ({"translationId": "a\nb", "language": "de", "expected": "x"}, "translationId"),
        ({"translationId": "a", "language": "xx-nope-nope", "expected": "x"}, "language"),
        ({"translationId": "a", "language": "de", "expected": "x" * 8193}, "expected"),
        ({"translationId": "a", "language": "de"}, "expected"),
        ({"translationId": "a", "language": "de", "expected": 3}, "expected"),
        ({"translationId": "a", "language": "de", "expected": "x", "more": 1}, "more"),
    ],
)
def test_an_item_the_quick_check_refuses_is_named_by_the_nested_schema(bad, field):
    items = [{"translationId": f"id-{n}", "language": "de", "expected": "v"} for n in range(5)] + [bad]
    with pytest.raises(ValidationError) as raised:
        ReplaceRequest().load({**BODY, "items": items})
    assert field in raised.value.messages["items"][5]


def test_a_value_listed_twice_is_still_refused():
    item = {"translationId": "a", "language": "de", "expected": "v"}
    with pytest.raises(ValidationError) as raised:
        ReplaceRequest().load({**BODY, "items": [item, dict(item)]})
    assert "listed twice" in str(raised.value.messages)
