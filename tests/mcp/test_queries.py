"""The read-side queries behind the MCP tools, at the service level: pagination, literal
search, the source-language rule, values inherited through a project link, and a number
of SQL statements that does not grow with the page."""

import pytest
from sqlalchemy import event, select

from loko.auth.models import User
from loko.auth.service import actor_for_api_key, user_actor
from loko.errors import BadRequest
from loko.extensions import db
from loko.projects.models import Project
from loko.projects.service import update_project
from loko.translations import queries
from loko.translations.details import update_key_details
from loko.translations.service import bulk_upsert
from tests.factories import project_in


@pytest.fixture
def actors(app, mcp_world):
    """Inside an app context: the write key's actor and the organization owner's."""
    with app.app_context():
        owner = db.session.execute(select(User).where(User.email == "owner@example.test")).scalar_one()
        yield actor_for_api_key(mcp_world.keys["write_key"]), user_actor(owner)


def test_search_pages_through_every_match_in_order(mcp_world, actors):
    key, _owner = actors
    items = [{"key": f"item.{number:02d}", "value": f"Item {number}"} for number in range(7)]
    bulk_upsert(key, mcp_world.project_id, "catalog", "en", items)
    seen, cursor = [], None
    while True:
        page = queries.search_translations(key, mcp_world.project_id, "ITEM", limit=3, cursor=cursor)
        seen += [(row["fileName"], row["key"]) for row in page["results"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == [("catalog", f"item.{number:02d}") for number in range(7)] + [("common", "cart.items")]


def test_search_treats_like_wildcards_literally(mcp_world, actors):
    key, _owner = actors
    bulk_upsert(key, mcp_world.project_id, "common", "en", [{"key": "done", "value": "100% done"}])
    page = queries.search_translations(key, mcp_world.project_id, "%")
    assert [row["key"] for row in page["results"]] == ["done"]
    assert page["results"][0]["matched"] == ["en"]


def test_search_language_limits_value_matches(mcp_world, actors):
    key, _owner = actors
    page = queries.search_translations(key, mcp_world.project_id, "bonjour", language="de")
    assert page["results"] == []


def test_foreign_cursor_is_refused(mcp_world, actors):
    key, _owner = actors
    with pytest.raises(BadRequest, match="cursor"):
        queries.missing_translations(key, mcp_world.project_id, "de", cursor="not-a-cursor")


def test_source_language_must_differ_from_the_language(mcp_world, actors):
    key, _owner = actors
    with pytest.raises(BadRequest, match="source_language"):
        queries.missing_translations(key, mcp_world.project_id, "de", source="de")


def test_source_language_is_the_project_setting_first_language_by_default(mcp_world, actors):
    _key, owner = actors
    assert queries.source_language(mcp_world.project_id) == "en"
    other = actor_for_api_key(mcp_world.keys["other_project_key"])
    assert queries.project_context(other, mcp_world.other_project_id)["source_language"] is None
    for language in ("fr", "de", "de"):
        bulk_upsert(other, mcp_world.other_project_id, "common", language, [{"key": language, "value": "x"}])
    assert queries.source_language(mcp_world.other_project_id) == "fr"
    update_project(owner, mcp_world.project_id, {"source_language": "de"})
    assert queries.project_context(owner, mcp_world.project_id)["source_language"] == "de"
    assert queries.missing_translations(owner, mcp_world.project_id, "fr")["source_language"] == "de"


def test_missing_uses_another_source_language_on_request(mcp_world, actors):
    key, _owner = actors
    page = queries.missing_translations(key, mcp_world.project_id, "de", file_name="common", source="fr")
    assert page["source_language"] == "fr"
    assert {row["key"]: row["source"] for row in page["missing"]} == {
        "farewell": "Au revoir",
        "cart.items": None,
    }
    assert {row["key"]: row["context"] for row in page["missing"]}["cart.items"] == {"en": "{count} items"}


def test_values_inherited_through_the_link_count_as_present(mcp_world, actors):
    key, owner = actors
    organization_id = db.session.get(Project, mcp_world.project_id).organization_id
    main = project_in(organization_id, languages=("en",), name="Main")
    lent = [
        {"key": "greeting", "value": "Hello from main"},
        {"key": "farewell", "value": "Goodbye from main"},
        {"key": "only.in.main", "value": "Extra"},
    ]
    bulk_upsert(owner, main, "common", "en", lent)
    bulk_upsert(owner, mcp_world.project_id, "common", "en-GB", [{"key": "farewell", "value": "Cheerio"}])
    update_project(
        owner,
        mcp_world.project_id,
        {"linked_project_id": main, "linked_language_code": "en", "linked_language_target_code": "en-GB"},
    )

    missing = queries.missing_translations(key, mcp_world.project_id, "en-GB")
    context = queries.project_context(key, mcp_world.project_id)
    greeting = queries.translation_by_key(key, mcp_world.project_id, "greeting", "common")

    assert {(row["fileName"], row["key"]) for row in missing["missing"]} == {
        ("common", "cart.items"),
        ("auth/login", "title"),
        ("auth/login", "password.forgot"),
    }
    assert context["link"] == {
        "project_id": main,
        "project_name": "Main",
        "source_language": "en",
        "target_language": "en-GB",
        "inherited_values": 2,
    }
    british = next(row for row in context["languages"] if row["code"] == "en-GB")
    assert (british["translated"], british["inherited"], british["missing"]) == (1, 1, 3)
    assert greeting["inherited"] == {"en-GB": "Hello from main"}


def test_missing_page_takes_the_same_statements_whatever_its_size(app, mcp_world, actors):
    key, _owner = actors
    items = [{"key": f"bulk.{number:03d}", "value": f"Text {number}"} for number in range(120)]
    bulk_upsert(key, mcp_world.project_id, "bulk", "en", items)
    queries.missing_translations(key, mcp_world.project_id, "de", limit=1)  # loads the project once
    statements = []

    def count(_connection, _cursor, statement, *_args):
        statements.append(statement)

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        queries.missing_translations(key, mcp_world.project_id, "de", limit=2)
        small = len(statements)
        statements.clear()
        queries.missing_translations(key, mcp_world.project_id, "de", limit=100)
        large = len(statements)
    finally:
        event.remove(db.engine, "before_cursor_execute", count)
    assert large == small


def test_missing_keys_carry_their_comment_and_maximum_length(mcp_world, actors):
    key, _owner = actors
    update_key_details(
        key,
        mcp_world.project_id,
        {"comment": "Cart badge", "maxLength": 8},
        key="cart.items",
        file_name="common",
    )
    page = queries.missing_translations(key, mcp_world.project_id, "de", file_name="common")
    rows = {row["key"]: (row["comment"], row["maxLength"]) for row in page["missing"]}
    assert rows == {"cart.items": ("Cart badge", 8), "farewell": (None, None)}
