"""PATCH /translations/details: a key's comment, context and maximum length, edited beside
its values, shown in the translation object only where set, recorded in the history and
carried by the exports whose format has them."""

import pytest

from tests.translation_factories import ProjectApi, project_api


@pytest.fixture
def api(app) -> ProjectApi:
    return project_api(app)


def details(api: ProjectApi, key="title", file_name="common", **fields):
    return api.patch("/translations/details", {"key": key, "fileName": file_name, **fields})


def test_details_are_set_and_shown_in_the_translation(api):
    api.create("title", {"en": "Title"})
    response = details(api, comment="Shown on the cart page", context="checkout", maxLength=20)
    assert response.status_code == 200
    translation = response.json["translation"]
    assert (translation["comment"], translation["context"], translation["maxLength"]) == (
        "Shown on the cart page",
        "checkout",
        20,
    )
    assert translation["values"] == {"en": "Title"}


def test_a_key_without_details_shows_none_of_the_new_fields(api):
    created = api.create("title", {"en": "Title"})
    assert not {"comment", "context", "maxLength"} & set(created)


def test_fields_left_out_stay_and_null_clears(api):
    api.create("title", {"en": "Title"})
    details(api, comment="Note", maxLength=20)
    translation = details(api, maxLength=None).json["translation"]
    assert translation["comment"] == "Note"
    assert "maxLength" not in translation
    assert "comment" not in details(api, comment="").json["translation"]


def test_the_values_are_left_alone(api):
    api.create("title", {"en": "Title", "de": "Titel"})
    details(api, comment="Note")
    assert api.export() == {"de": {"common": {"title": "Titel"}}, "en": {"common": {"title": "Title"}}}


@pytest.mark.parametrize("max_length", [0, 8193, -1, "20", 2.5, True])
def test_a_max_length_outside_1_to_8192_is_refused(api, max_length):
    api.create("title", {"en": "Title"})
    response = details(api, maxLength=max_length)
    assert response.status_code == 400
    assert "maxLength" in str(response.json)


def test_the_bounds_of_max_length_are_accepted(api):
    api.create("title", {"en": "Title"})
    assert details(api, maxLength=1).json["translation"]["maxLength"] == 1
    assert details(api, maxLength=8192).json["translation"]["maxLength"] == 8192


def test_a_body_without_any_detail_is_refused(api):
    api.create("title", {"en": "Title"})
    response = details(api)
    assert response.status_code == 400


def test_an_unknown_field_is_refused(api):
    api.create("title", {"en": "Title"})
    assert details(api, description="x").status_code == 400


def test_a_comment_over_8192_characters_is_refused(api):
    api.create("title", {"en": "Title"})
    assert details(api, comment="x" * 8193).status_code == 400


def test_an_unknown_key_is_not_found_and_not_created(api):
    response = details(api, key="missing", comment="x")
    assert response.status_code == 404
    assert api.keys() == []


def test_a_trashed_key_is_not_found(api):
    created = api.create("title", {"en": "Title"})
    api.trash(created["id"])
    assert details(api, comment="x").status_code == 404


def test_a_read_key_cannot_edit_details(api, app):
    from loko.extensions import db
    from loko.projects.models import Project
    from tests.factories import CallerClient, make_key

    api.create("title", {"en": "Title"})
    with app.app_context():
        key, _ = make_key(db.session.get(Project, api.project_id), name="reader", scope="read")
    reader = api.as_client(CallerClient(app, {"bearer": key}))
    assert details(reader, comment="x").status_code == 403


def test_each_change_is_one_history_entry_with_language_null(api):
    created = api.create("title", {"en": "Title"})
    details(api, comment="Note", maxLength=20)
    details(api, comment="Note", maxLength=30)
    entries = api.history(translationId=created["id"])
    changes = [(e["action"], e["language"], e["old_value"], e["new_value"]) for e in entries[:3]]
    assert changes == [
        ("updated", None, "maxLength: 20", "maxLength: 30"),
        ("updated", None, None, "maxLength: 20"),
        ("updated", None, None, "comment: Note"),
    ] or changes == [
        ("updated", None, "maxLength: 20", "maxLength: 30"),
        ("updated", None, None, "comment: Note"),
        ("updated", None, None, "maxLength: 20"),
    ]


def test_an_unchanged_detail_writes_no_history(api):
    created = api.create("title", {"en": "Title"})
    details(api, comment="Note")
    before = len(api.history(translationId=created["id"]))
    details(api, comment="Note")
    assert len(api.history(translationId=created["id"])) == before


def test_the_po_export_carries_the_comment_and_context(api):
    api.create("title", {"en": "Title"})
    details(api, comment="Shown on the cart page", context="checkout")
    response = api.client.get(
        api.url("/translations"), query_string={"format": "po", "language": "en", "fileName": "common"}
    )
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    assert "# Shown on the cart page" in text
    assert 'msgctxt "checkout"' in text


def test_the_xliff_export_carries_the_max_length(api):
    api.create("title", {"en": "Title", "de": "Titel"})
    details(api, maxLength=20, comment="Button")
    response = api.client.get(
        api.url("/translations"), query_string={"format": "xliff", "language": "de", "fileName": "common"}
    )
    assert response.status_code == 200
    assert b'maxwidth="20" size-unit="char"' in response.data
    assert b"<note>Button</note>" in response.data
