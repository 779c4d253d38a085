"""The apply's rules: a regular expression that runs out of time on one value, one
operation undone as a whole, review states by who replaced, and who may replace what."""

import pytest

from loko.extensions import db
from loko.translations.models import TranslationValue
from tests.factories import CALLERS, CallerClient
from tests.replace.conftest import ticked

# A pattern that backtracks without end on a run of a's followed by something else.
PATHOLOGICAL = r"(a|aa)+$"


def _add(as_caller, project, key, values):
    response = as_caller("write_key").post(
        f"/api/projects/{project.project_id}/translations",
        json={"key": key, "fileName": "common", "values": values},
    )
    assert response.status_code == 201, response.json
    return response.json["translation"]["id"]


def _state(app, translation_id, language):
    with app.app_context():
        value = db.session.get(TranslationValue, (translation_id, language))
        return value.state, value.review_reason


def test_a_pathological_regex_is_stopped_on_one_value_and_the_others_are_applied(
    replace, project, as_caller, values
):
    slow = _add(as_caller, project, "slow", {"de": "a" * 40 + "b"})
    _add(as_caller, project, "fast", {"de": "aaaa"})
    body = {"find": PATHOLOGICAL, "replace": "x", "mode": "regex", "languages": ["de"]}
    preview = replace("org_owner", **body)
    assert preview.status_code == 200, preview.json
    assert [item["translationId"] for item in preview.json["timedOut"]] == [slow]
    assert [change["key"] for change in preview.json["changes"]] == ["fast"]
    items = [*ticked(preview.json), {"translationId": slow, "language": "de", "expected": "a" * 40 + "b"}]
    applied = replace("org_owner", **body, dryRun=False, items=items)
    assert applied.status_code == 200, applied.json
    assert applied.json["applied"] == 1
    assert [item["translationId"] for item in applied.json["timedOut"]] == [slow]
    now = values()
    assert (now["fast"]["de"], now["slow"]["de"]) == ("x", "a" * 40 + "b")


def test_a_nested_repetition_that_python_re_never_finishes_is_answered(replace, project, as_caller):
    _add(as_caller, project, "run", {"de": "a" * 40 + "b"})
    response = replace("org_owner", find=r"(a+)+$", replace="x", mode="regex", languages=["de"])
    assert response.status_code == 200, response.json
    assert response.json["changes"] == []


def test_the_apply_is_one_operation_whose_undo_restores_every_value(replace, project, as_caller, values):
    before = values()
    preview = replace("org_owner", find="Welt", replace="World").json
    applied = replace("org_owner", find="Welt", replace="World", dryRun=False, items=ticked(preview)).json
    owner = as_caller("org_owner")
    operation = owner.get(f"/api/projects/{project.project_id}/operations/{applied['operationId']}").json
    assert operation["operation"]["kind"] == "replace"
    assert operation["operation"]["details"]["updated"] == 4
    listed = owner.get(f"/api/projects/{project.project_id}/operations", query_string={"kind": "replace"})
    assert [item["id"] for item in listed.json["operations"]] == [applied["operationId"]]
    undone = owner.post(
        f"/api/projects/{project.project_id}/history/revert", json={"operationId": applied["operationId"]}
    )
    assert undone.status_code == 200, undone.json
    assert values() == before


def test_the_history_names_the_actor_of_each_replaced_value(replace, project, as_caller):
    preview = replace("editor", find="Welt", replace="World").json
    replace("editor", find="Welt", replace="World", dryRun=False, items=ticked(preview, "greeting"))
    history = as_caller("org_owner").get(
        f"/api/projects/{project.project_id}/translations/history", query_string={"key": "greeting"}
    )
    entry = history.json["history"][0]
    assert (entry["action"], entry["old_value"], entry["new_value"]) == (
        "updated",
        "Hallo Welt",
        "Hallo World",
    )
    assert entry["actor"]["name"] == "editor"


def test_an_editors_replaced_value_waits_for_a_review_and_a_reviewers_does_not(app, replace, project):
    preview = replace("editor", find="Welt", replace="World").json
    replace("editor", find="Welt", replace="World", dryRun=False, items=ticked(preview, "greeting"))
    replace("reviewer", find="Welt", replace="World", dryRun=False, items=ticked(preview, "cart"))
    assert _state(app, project.ids["greeting"], "de") == ("needs-review", "requested")
    assert _state(app, project.ids["cart"], "de") == ("translated", None)


def test_a_caller_limited_to_a_language_previews_and_replaces_in_it_only(replace, values):
    preview = replace("de_editor", find="o", replace="0").json
    assert {change["language"] for change in preview["changes"]} == {"de"}
    everywhere = replace("org_owner", find="o", replace="0").json
    french = [item for item in ticked(everywhere) if item["language"] == "fr"]
    refused = replace("de_editor", find="o", replace="0", dryRun=False, items=french)
    assert refused.status_code == 403, refused.json
    assert refused.json["error"] == "language: you may not edit fr in this project."
    assert values()["greeting"]["fr"] == "Bonjour le monde"


def test_the_source_language_needs_include_source_and_the_right_to_edit_it(replace):
    preview = replace("org_owner", find="Hello", replace="Hi", includeSource=True).json
    items = ticked(preview)
    without = replace("org_owner", find="Hello", replace="Hi", dryRun=False, items=items)
    assert without.status_code == 400
    assert without.json["error"].startswith("items.0.language: en is the project's source language")
    limited = replace("de_editor", find="Hello", replace="Hi", includeSource=True, dryRun=False, items=items)
    assert limited.status_code == 403, limited.json


def _statuses(write_status):
    # anonymous, unknown_key, revoked_key, other_project_key, read_key, write_key,
    # viewer, editor, project_admin, org_admin, org_owner, outsider
    read = (401, 401, 401, 403, 200, 200, 200, 200, 200, 200, 200, 404)
    write = (
        401,
        401,
        401,
        403,
        403,
        write_status,
        403,
        write_status,
        write_status,
        write_status,
        write_status,
        404,
    )
    return read, write


@pytest.mark.parametrize(
    ("caller", "expected"), list(zip(CALLERS, zip(*_statuses(200), strict=True), strict=True))
)
def test_who_may_preview_and_who_may_apply(app, project, as_caller, caller, expected):
    owner_preview = as_caller("org_owner").post(
        f"/api/projects/{project.project_id}/replace", json={"find": "Welt", "replace": "World"}
    )
    items = ticked(owner_preview.json, "greeting")
    client = CallerClient(app, project.credentials[caller])
    url = f"/api/projects/{project.project_id}/replace"
    preview = client.post(url, json={"find": "Welt", "replace": "World"})
    applied = client.post(url, json={"find": "Welt", "replace": "World", "dryRun": False, "items": items})
    assert (preview.status_code, applied.status_code) == expected, (preview.json, applied.json)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"replace": "x"}, "find"),
        ({"find": "", "replace": "x"}, "find"),
        ({"find": "x" * 1001, "replace": "x"}, "find"),
        ({"find": "(", "replace": "x", "mode": "regex"}, "find"),
        ({"find": "(a{1000}){1000}", "replace": "x", "mode": "regex"}, "find"),
        ({"find": "(a)", "replace": r"\2", "mode": "regex"}, "replace"),
        ({"find": "(a)", "replace": r"\g<name>", "mode": "regex"}, "replace"),
        ({"find": "a"}, "replace"),
        ({"find": "a", "replace": "b", "mode": "glob"}, "mode"),
        ({"find": "a", "replace": "b", "languages": ["xx-nope-123456789"]}, "languages"),
        ({"find": "a", "replace": "b", "languages": ["it"]}, "languages.0"),
        ({"find": "a", "replace": "b", "languages": ["en"]}, "languages.0"),
        ({"find": "a", "replace": "b", "state": "done"}, "state"),
        ({"find": "a", "replace": "b", "cursor": "nonsense"}, "cursor"),
        ({"find": "a", "replace": "b", "dryRun": False}, "items"),
        ({"find": "a", "replace": "b", "items": []}, "items"),
        ({"find": "a", "replace": "b", "dryRun": False, "items": [{"translationId": "x"}]}, "items.0"),
        (
            {
                "find": "a",
                "replace": "b",
                "dryRun": False,
                "limit": 5,
                "items": [{"translationId": "x", "language": "de", "expected": ""}],
            },
            "limit",
        ),
        ({"find": "a", "replace": "b", "unknown": 1}, "unknown"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(replace, body, field):
    response = replace("org_owner", **body)
    assert response.status_code == 400, response.json
    assert field in response.json["error"]


def test_a_value_listed_twice_is_refused(replace, project):
    item = {"translationId": project.ids["greeting"], "language": "de", "expected": "Hallo Welt"}
    response = replace("org_owner", find="Welt", replace="World", dryRun=False, items=[item, item])
    assert response.status_code == 400
    assert "items.1: this value is listed twice" in response.json["error"]


def test_a_result_holding_nul_is_refused(replace):
    preview = replace("org_owner", find="(Welt)", replace=r"\0", mode="regex", languages=["de"]).json
    assert preview["changes"] == []
    assert {item["check"] for item in preview["refused"]} == {None}


def test_the_apply_writes_many_values_in_as_many_statements_as_a_few(app, replace, project, as_caller):
    from tests.integration.test_query_counts import counted_statements

    for index in range(60):
        _add(as_caller, project, f"extra.{index:02d}", {"de": f"Welt {index}", "fr": f"Monde {index}"})

    def applied(count):
        preview = replace("org_owner", find="Welt", replace="World", languages=["de"], limit=count).json
        items = ticked(preview)
        assert len(items) == count
        with counted_statements(app) as statements:
            response = replace("org_owner", find="Welt", replace="World", dryRun=False, items=items)
        assert response.json["applied"] == count
        return statements

    applied(5)  # the first write of the file in this process notes its version's baseline
    assert len(applied(30)) == len(applied(5))


def test_the_apply_tells_the_webhooks_of_the_values_changed(app, replace, project, monkeypatch):
    from loko import events

    heard = []

    class Listener:
        def wanted(self, project_id, kind):
            return True

        def emit(self, project_id, kind, items, count, author=None):
            heard.append((kind, count, [(item["key"], item["newValue"]) for item in items]))

        def emit_one(self, project_id, kind, data):
            pass

    monkeypatch.setattr(events, "LISTENERS", [*events.LISTENERS, Listener()])
    preview = replace("org_owner", find="Welt", replace="World").json
    replace("org_owner", find="Welt", replace="World", dryRun=False, items=ticked(preview, "greeting"))
    assert heard == [(events.VALUES_CHANGED, 1, [("greeting", "Hallo World")])]


def test_a_preview_page_out_of_time_ends_early_with_a_cursor_to_go_on(replace, monkeypatch):
    from loko.replace import service

    monkeypatch.setattr(service, "PAGE_SECONDS", -1.0)
    first = replace("org_owner", find="Welt", replace="World").json
    assert len(first["changes"]) == 1
    assert first["nextCursor"] is not None
    monkeypatch.setattr(service, "PAGE_SECONDS", 10.0)
    rest = replace("org_owner", find="Welt", replace="World", cursor=first["nextCursor"]).json
    assert len(first["changes"]) + len(rest["changes"]) == 4


def test_an_apply_out_of_time_lists_the_values_left_as_timed_out(replace, values, monkeypatch):
    from loko.replace import service

    preview = replace("org_owner", find="Welt", replace="World").json
    monkeypatch.setattr(service, "APPLY_SECONDS", -1.0)
    response = replace("org_owner", find="Welt", replace="World", dryRun=False, items=ticked(preview))
    assert response.status_code == 200, response.json
    assert (response.json["applied"], len(response.json["timedOut"])) == (0, 4)
    assert values()["greeting"]["de"] == "Hallo Welt"
