"""POST .../replace: the preview lists each value a replacement changes, and the apply
writes only the ticked ones, each only while it is still the value the preview saw."""

from tests.replace.conftest import ticked


def test_the_preview_lists_each_change_with_its_value_before_and_after(replace, project, values):
    response = replace("org_owner", find="Welt", replace="World", matchCase=True)
    assert response.status_code == 200, response.json
    changes = {change["key"]: change for change in response.json["changes"]}
    assert set(changes) == {"greeting", "cart", "link", "world"}
    assert changes["greeting"] == {
        "translationId": project.ids["greeting"],
        "key": "greeting",
        "fileName": "common",
        "language": "de",
        "before": "Hallo Welt",
        "after": "Hallo World",
        "matches": 1,
    }
    assert response.json["nextCursor"] is None
    assert values()["greeting"]["de"] == "Hallo Welt"  # a preview writes nothing


def test_the_apply_writes_only_the_ticked_values(replace, values):
    preview = replace("org_owner", find="Welt", replace="World").json
    response = replace(
        "org_owner", find="Welt", replace="World", dryRun=False, items=ticked(preview, "greeting")
    )
    assert response.status_code == 200, response.json
    assert response.json["applied"] == 1
    assert response.headers["Loko-Operation"] == response.json["operationId"]
    now = values()
    assert now["greeting"]["de"] == "Hallo World"
    assert now["cart"]["de"] == "{count} Artikel in der Welt"


def test_a_value_changed_after_the_preview_is_skipped_and_never_overwritten(
    replace, project, as_caller, values
):
    preview = replace("org_owner", find="Welt", replace="World").json
    edited = as_caller("editor").patch(
        f"/api/projects/{project.project_id}/translations",
        json={"key": "greeting", "fileName": "common", "updates": {"de": {"value": "Hallo schöne Welt"}}},
    )
    assert edited.status_code == 200, edited.json
    response = replace("org_owner", find="Welt", replace="World", dryRun=False, items=ticked(preview))
    assert response.status_code == 200, response.json
    assert response.json["skipped"] == [
        {
            "translationId": project.ids["greeting"],
            "key": "greeting",
            "fileName": "common",
            "language": "de",
            "reason": "changed",
            "current": "Hallo schöne Welt",
        }
    ]
    assert response.json["applied"] == 3
    assert values()["greeting"]["de"] == "Hallo schöne Welt"


def test_a_replacement_that_breaks_a_placeholder_is_refused_and_not_written(replace, values):
    preview = replace("org_owner", find="{count}", replace="{anzahl}", languages=["de"]).json
    assert preview["changes"] == []
    (refused,) = preview["refused"]
    assert (refused["key"], refused["check"]) == ("cart", "placeholders")
    assert "{count}" in refused["reason"]
    item = {"translationId": refused["translationId"], "language": "de", "expected": refused["before"]}
    response = replace("org_owner", find="{count}", replace="{anzahl}", dryRun=False, items=[item])
    assert response.status_code == 200, response.json
    assert (response.json["applied"], response.json["operationId"]) == (0, None)
    assert [entry["check"] for entry in response.json["refused"]] == ["placeholders"]
    assert values()["cart"]["de"] == "{count} Artikel in der Welt"


def test_a_replacement_that_breaks_a_tag_is_refused(replace):
    preview = replace("org_owner", find="</b>", replace="", languages=["de"]).json
    assert [(item["key"], item["check"]) for item in preview["refused"]] == [("link", "tags")]


def test_a_check_the_project_refuses_refuses_that_value_only(replace, project, as_caller, values):
    settings = as_caller("org_owner").put(
        f"/api/projects/{project.project_id}", json={"checks": {"double-space": "refuse"}}
    )
    assert settings.status_code == 200, settings.json
    preview = replace("org_owner", find="Welt", replace=" Welt").json
    refused = {item["key"] for item in preview["refused"]}
    assert "greeting" in refused  # "Hallo  Welt"
    response = replace("org_owner", find="Welt", replace=" Welt", dryRun=False, items=ticked(preview))
    assert response.status_code == 200, response.json
    assert values()["greeting"]["de"] == "Hallo Welt"


def test_whole_word_leaves_words_that_only_contain_the_text(replace):
    preview = replace("org_owner", find="welt", replace="Erde", wholeWord=True, languages=["de"]).json
    after = {change["key"]: change["after"] for change in preview["changes"]}
    assert after["world"] == "Weltweit und Erde"
    assert after["greeting"] == "Hallo Erde"


def test_match_case_finds_only_the_case_given(replace):
    preview = replace("org_owner", find="welt", replace="Erde", matchCase=True, languages=["de"]).json
    assert [(change["key"], change["after"]) for change in preview["changes"]] == [
        ("world", "Weltweit und Erde")
    ]


def test_text_mode_takes_the_replacement_as_written(replace):
    preview = replace("org_owner", find="Hallo", replace=r"\1 $1", languages=["de"]).json
    assert [change["after"] for change in preview["changes"]] == [r"\1 $1 Welt"]


def test_regex_groups_go_into_the_replacement(replace):
    preview = replace(
        "org_owner", find=r"(?P<first>\w+) (\w+)$", replace=r"\2 \g<first>", mode="regex", languages=["de"]
    ).json
    after = {change["key"]: change["after"] for change in preview["changes"]}
    assert after["greeting"] == "Welt Hallo"


def test_the_source_language_is_replaced_only_when_asked_for(replace):
    without = replace("org_owner", find="Hello", replace="Hi").json
    assert without["changes"] == []
    with_source = replace("org_owner", find="Hello", replace="Hi", includeSource=True).json
    assert [(change["key"], change["language"]) for change in with_source["changes"]] == [("greeting", "en")]


def test_the_preview_filters_by_state(replace, project, as_caller):
    reviewed = as_caller("org_owner").post(
        f"/api/projects/{project.project_id}/translations/review",
        json={"fileName": "common", "keys": ["greeting"], "languages": ["de"], "state": "reviewed"},
    )
    assert reviewed.status_code == 200, reviewed.json
    preview = replace("org_owner", find="Welt", replace="World", state="reviewed").json
    assert [change["key"] for change in preview["changes"]] == ["greeting"]


def test_the_preview_pages_with_a_cursor(replace):
    first = replace("org_owner", find="Welt", replace="World", limit=3).json
    assert len(first["changes"]) == 3
    rest = replace("org_owner", find="Welt", replace="World", cursor=first["nextCursor"]).json
    assert len(rest["changes"]) == 1
    assert rest["nextCursor"] is None
    keys = [change["key"] for change in first["changes"] + rest["changes"]]
    assert sorted(keys) == ["cart", "greeting", "link", "world"]


def test_an_apply_of_a_value_a_refusing_check_finds_wrong_writes_the_others(
    replace, project, as_caller, values
):
    settings = as_caller("org_owner").put(
        f"/api/projects/{project.project_id}", json={"checks": {"double-space": "refuse"}}
    )
    assert settings.status_code == 200, settings.json
    preview = replace("org_owner", find="Welt", replace=" Welt", languages=["de"]).json
    items = ticked(preview) + [
        {"translationId": item["translationId"], "language": item["language"], "expected": item["before"]}
        for item in preview["refused"]
    ]
    response = replace("org_owner", find="Welt", replace=" Welt", dryRun=False, items=items)
    assert response.status_code == 200, response.json
    refused = {item["key"]: item["check"] for item in response.json["refused"]}
    assert refused == {item["key"]: "double-space" for item in preview["refused"]}
    assert "greeting" in refused
    assert response.json["applied"] == len(items) - len(refused) == 1
    now = values()
    assert now["greeting"]["de"] == "Hallo Welt"
    assert now["link"]["de"] == "<b> Welt</b> entdecken"
