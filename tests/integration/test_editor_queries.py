"""The editor's query at the service level: each filter and their combination, keyset paging
in both directions across files, values inherited through a project link, the columns
shown, a number of statements that does not depend on the page, and a page read straight
from the active-key index on both databases."""

from contextlib import contextmanager
from datetime import date, timedelta

import pytest
from sqlalchemy import event, update

from loko.auth.service import actor_for_api_key
from loko.database import unit_of_work, utcnow
from loko.errors import BadRequest
from loko.extensions import db
from loko.translations.models import Translation
from loko.workspace.editor import EditorFilters, editor_page
from tests.factories import project_in
from tests.translation_factories import ProjectApi, link_projects, project_api


@pytest.fixture
def api(app) -> ProjectApi:
    api = project_api(app)
    for code in ("en", "de", "fr"):
        api.add_language(code)
    return api


@pytest.fixture
def page(app, api):
    """``page(filters=..., ...)``: editor_page for the project, as its write key."""

    def load(filters=None, **arguments):
        with app.app_context():
            actor = actor_for_api_key(api.credentials["bearer"])
            return editor_page(actor, api.project_id, filters or EditorFilters(), **arguments)

    return load


def keys(result) -> list[tuple[str, str]]:
    return [(row.file_name, row.key) for row in result.rows]


def all_pages(page, **arguments) -> list[tuple[str, str]]:
    seen, cursor = [], None
    while True:
        result = page(after=cursor, **arguments)
        seen += keys(result)
        cursor = result.next_cursor
        if cursor is None:
            return seen


def test_first_page_lists_active_keys_by_file_then_key(api, page):
    api.create("b", {"en": "B"}, file_name="one")
    api.create("a", {"en": "A"}, file_name="two")
    api.create("a", {"en": "A"}, file_name="one")
    trashed = api.create("c", {"en": "C"}, file_name="one")
    api.delete("/translations", {"id": trashed["id"]})
    result = page()
    assert keys(result) == [("one", "a"), ("one", "b"), ("two", "a")]
    assert result.next_cursor is None and result.previous_cursor is None


def test_cursor_pages_through_every_key_across_files(api, page):
    for file_name in ("auth/login", "checkout", "home"):
        api.upsert("en", {f"key.{i:02d}": f"v{i}" for i in range(7)}, file_name=file_name)
    expected = [(f, f"key.{i:02d}") for f in ("auth/login", "checkout", "home") for i in range(7)]
    assert all_pages(page, limit=5) == expected


def test_before_cursor_gives_the_page_before(api, page):
    api.upsert("en", {f"key.{i:02d}": "v" for i in range(30)})
    second = page(after=page(limit=10).next_cursor, limit=10)
    third = page(after=second.next_cursor, limit=10)
    back = page(before=third.previous_cursor, limit=10)
    assert keys(back) == keys(second)
    assert back.next_cursor == second.next_cursor
    assert back.previous_cursor is not None


def test_going_back_to_the_start_shows_a_full_first_page(api, page):
    api.upsert("en", {f"key.{i:02d}": "v" for i in range(30)})
    first = page(limit=10)
    short_step = page(after=page(limit=3).next_cursor, limit=10)
    back = page(before=short_step.previous_cursor, limit=10)
    assert keys(back) == keys(first)
    assert back.previous_cursor is None


def test_file_filter_keeps_one_file(api, page):
    api.create("a", {"en": "A"}, file_name="one")
    api.create("a", {"en": "A"}, file_name="two")
    assert keys(page(EditorFilters(file_name="two"))) == [("two", "a")]


def test_search_matches_keys_ignoring_ascii_case(api, page):
    api.create("Checkout.Title", {"en": "Pay"})
    api.create("other", {"en": "Other"})
    assert keys(page(EditorFilters(search="checkout.TITLE"))) == [("common", "Checkout.Title")]


def test_search_matches_values_of_languages_not_shown(api, page):
    api.create("greeting", {"en": "Hello", "fr": "Bonjour"})
    api.create("other", {"en": "Other"})
    result = page(EditorFilters(search="BONJOUR"), languages=("de",), source="en")
    assert keys(result) == [("common", "greeting")]
    assert result.shown == ["en", "de"]


def test_search_finds_other_scripts_in_their_own_case(api, page):
    api.create("greeting", {"de": "Größe", "fr": "Привет"})
    assert keys(page(EditorFilters(search="öß"))) == [("common", "greeting")]
    assert keys(page(EditorFilters(search="Прив"))) == [("common", "greeting")]


def test_search_treats_like_wildcards_literally(api, page):
    api.create("discount", {"en": "50% off"})
    api.create("plain", {"en": "500 off"})
    api.create("under_score", {"en": "x"})
    api.create("underXscore", {"en": "x"})
    assert keys(page(EditorFilters(search="0%"))) == [("common", "discount")]
    assert keys(page(EditorFilters(search="r_s"))) == [("common", "under_score")]


def test_missing_filter_keeps_keys_without_a_value_in_the_language(api, page):
    api.create("done", {"en": "Done", "de": "Fertig"})
    api.create("todo", {"en": "To do"})
    api.create("empty", {"en": "Empty", "de": ""})
    assert keys(page(EditorFilters(missing="de"))) == [("common", "todo")]


def test_missing_language_joins_the_columns(api, page):
    api.create("todo", {"en": "To do", "de": "Offen"})
    result = page(EditorFilters(missing="fr"), languages=("de",), source="en")
    assert result.shown == ["en", "de", "fr"]


def _age(project_id: str, key: str, days: int) -> None:
    with unit_of_work():
        db.session.execute(
            update(Translation)
            .where(Translation.project_id == project_id, Translation.key == key)
            .values(updated_at=utcnow() - timedelta(days=days))
        )


def test_changed_since_keeps_keys_changed_on_or_after_the_day(app, api, page):
    api.create("old", {"en": "Old"})
    api.create("recent", {"en": "Recent"})
    api.create("edited", {"en": "Edited"})
    with app.app_context():
        for key in ("old", "edited"):
            _age(api.project_id, key, 10)
    api.set_values("edited", {"de": "Bearbeitet"})
    since = date.today() - timedelta(days=2)
    assert keys(page(EditorFilters(changed_since=since))) == [("common", "edited"), ("common", "recent")]


def test_filters_combine(api, page):
    api.create("home.title", {"en": "Welcome"}, file_name="home")
    api.create("home.body", {"en": "Welcome back", "de": "Willkommen"}, file_name="home")
    api.create("away.title", {"en": "Welcome"}, file_name="away")
    api.create("home.footer", {"en": "Bye"}, file_name="home")
    filters = EditorFilters(file_name="home", search="welcome", missing="de")
    assert keys(page(filters)) == [("home", "home.title")]


def test_default_columns_are_the_source_then_the_next_languages(api, page):
    api.add_language("it")
    api.create("greeting", {"fr": "Bonjour", "de": "Hallo"})
    api.create("farewell", {"fr": "Au revoir"})
    result = page()
    assert (result.source, result.shown) == ("en", ["en", "de", "fr"])  # en was added first


def test_rows_carry_only_the_values_of_the_languages_shown(api, page):
    api.create("greeting", {"en": "Hello", "de": "Hallo", "fr": "Bonjour"})
    result = page(languages=("fr",), source="en")
    assert result.rows[0].values == {"en": "Hello", "fr": "Bonjour"}


def test_one_key_by_id(api, page):
    created = api.create("greeting", {"en": "Hello"})
    api.create("other", {"en": "Other"})
    assert keys(page(EditorFilters(translation_id=created["id"]))) == [("common", "greeting")]


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"filters": EditorFilters(missing="xx")}, "missing"),
        ({"languages": ("xx",)}, "lang"),
        ({"source": "xx"}, "source"),
        ({"filters": EditorFilters(inherited=True)}, "inherited"),
        ({"after": "bm90IGEgY3Vyc29y"}, "after"),
        ({"before": "%%%"}, "before"),
        ({"after": "W10", "before": "W10"}, "before"),
    ],
)
def test_bad_arguments_name_the_parameter(page, arguments, field):
    with pytest.raises(BadRequest, match=f"^{field}:"):
        page(**arguments)


@pytest.fixture
def linked(app, api):
    """The project's en-GB inherits en of a project "Main" with three keys."""
    with app.app_context():
        organization_id = api.organization_id
        main_id = project_in(organization_id, languages=["en"], name="Main")
    main = ProjectApi(api.owner, main_id)
    main.upsert("en", {"colour": "Colour", "centre": "Centre", "only.main": "Main only"})
    api.add_language("en-GB")
    link_projects(api.owner, api.project_id, main_id, "en", "en-GB")
    api.create("colour", {"en": "Color"})
    api.create("centre", {"en": "Center", "en-GB": "Centre (own)"})
    api.create("local", {"en": "Local"})
    return api


def test_inherited_filter_keeps_keys_whose_value_comes_only_from_the_link(linked, page):
    result = page(EditorFilters(inherited=True), languages=("en-GB",), source="en")
    assert keys(result) == [("common", "colour"), ("common", "only.main")]
    assert [row.inherited for row in result.rows] == [{"en-GB": "Colour"}, {"en-GB": "Main only"}]


def test_keys_only_the_linked_project_has_show_without_an_id_as_the_export_has_them(linked, page):
    rows = {row.key: row for row in page(languages=("en-GB",), source="en").rows}
    assert sorted(rows) == ["centre", "colour", "local", "only.main"]
    assert rows["only.main"].id == "" and rows["only.main"].values == {}
    assert rows["only.main"].inherited == {"en-GB": "Main only"}
    assert keys(page(EditorFilters(search="main only"))) == [("common", "only.main")]
    assert keys(page(EditorFilters(missing="en"))) == [("common", "only.main")]
    assert all_pages(page, limit=1) == keys(page())
    last = page(limit=3)
    back = page(before=page(after=last.next_cursor, limit=3).previous_cursor, limit=3)
    assert keys(back) == keys(last)


def test_inherited_values_fill_the_inheriting_column_only_where_it_has_no_value(linked, page):
    rows = {row.key: row for row in page(languages=("en-GB",), source="en").rows}
    assert rows["colour"].inherited == {"en-GB": "Colour"}
    assert rows["centre"].inherited == {} and rows["centre"].values["en-GB"] == "Centre (own)"
    assert rows["local"].inherited == {}


def test_missing_in_the_inheriting_language_leaves_out_inherited_keys(linked, page):
    assert keys(page(EditorFilters(missing="en-GB"))) == [("common", "local")]


@contextmanager
def statements(app):
    with app.app_context():
        engine = db.engine
    seen = []

    def record(_connection, _cursor, statement, parameters, _context, _executemany):
        seen.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)


def _count(app, call) -> int:
    call()  # caches (the per-version language counts) are filled outside the count
    with statements(app) as seen:
        call()
    return len(seen)


def test_statements_do_not_grow_with_the_page_position(app, api, page):
    api.upsert("en", {f"key.{i:03d}": f"v{i}" for i in range(200)})
    api.upsert("de", {f"key.{i:03d}": f"w{i}" for i in range(200)})
    cursors = [None]
    for _ in range(3):
        cursors.append(page(after=cursors[-1], limit=20).next_cursor)
    first = _count(app, lambda: page(limit=20))
    fourth = _count(app, lambda: page(after=cursors[3], limit=20))
    back = _count(app, lambda: page(before=cursors[3], limit=20))
    assert first == fourth == back


def test_statements_do_not_grow_with_the_page_size(app, api, page):
    api.upsert("en", {f"key.{i:03d}": f"v{i}" for i in range(200)})
    api.upsert("de", {f"key.{i:03d}": f"w{i}" for i in range(200)})
    assert _count(app, lambda: page(limit=5)) == _count(app, lambda: page(limit=200))


def test_statements_do_not_grow_with_filters_on_inherited_pages(app, linked, page):
    small = _count(app, lambda: page(EditorFilters(inherited=True), languages=("en-GB",), limit=1))
    large = _count(app, lambda: page(languages=("en-GB",), limit=50))
    assert small == large


def _page_plan(app, page, **arguments) -> str:
    """The database's plan for the statement that reads the page's keys."""
    with statements(app) as seen:
        page(**arguments)
    statement, parameters = next(s for s in seen if "ORDER BY translations.file_name" in s[0])
    with app.app_context():
        connection = db.session.connection()
        explain = "EXPLAIN QUERY PLAN " if connection.dialect.name == "sqlite" else "EXPLAIN "
        if connection.dialect.name == "postgresql":
            # Statistics of the rows this test wrote, not those left by earlier tests (a
            # handful of rows, where every index and a sort cost about the same).
            connection.exec_driver_sql("ANALYZE translations")
        rows = connection.exec_driver_sql(explain + statement, parameters).all()
        plan = "\n".join(str(row[-1]) for row in rows)
        db.session.rollback()
    return plan


@pytest.mark.parametrize("direction", ["after", "before"])
def test_a_page_walks_the_active_key_index_without_sorting(app, api, page, direction):
    for file_name in ("a", "b", "c"):
        api.upsert("en", {f"key.{i:04d}": f"v{i}" for i in range(400)}, file_name=file_name)
    cursor = page(limit=50).next_cursor
    plan = _page_plan(app, page, **{direction: cursor})
    assert "ix_translations_active_natural" in plan
    assert "TEMP B-TREE" not in plan and "Sort" not in plan


def test_progress_with_inheritance_counts_what_the_export_and_the_editor_show(app, linked, page):
    from loko.languages.service import project_languages
    from loko.projects.models import Project

    with app.app_context():
        project = db.session.get(Project, linked.project_id)
        counts = {
            row["code"]: (row["translated"], row["total"]) for row in project_languages(project, True, True)
        }
    shown = page(languages=("en-GB",), source="en").rows
    assert len(shown) == 4
    assert counts["en"] == (3, 4)
    assert counts["en-GB"] == (len([row for row in shown if row.values.get("en-GB") or row.inherited]), 4)


def test_keys_are_listed_in_natural_order_across_pages(api, page):
    api.upsert("en", {key: key for key in ("item10", "item2", "item1", "item01", "a9b", "a10b")})
    assert [key for _, key in keys(page())] == ["a9b", "a10b", "item01", "item1", "item2", "item10"]
    assert all_pages(page, limit=2) == keys(page())
    last = page(limit=3)
    back = page(before=page(after=last.next_cursor, limit=3).previous_cursor, limit=3)
    assert keys(back) == keys(last)


def test_the_sort_key_pads_numbers_and_stays_small():
    from loko.translations.models import MAX_SORT_KEY_BYTES, natural_sort_key

    assert natural_sort_key("item2") < natural_sort_key("item10")
    assert natural_sort_key("v1.2.10") > natural_sort_key("v1.2.9")
    assert len(natural_sort_key("1." * 128).encode()) <= MAX_SORT_KEY_BYTES
    assert len(natural_sort_key("😀" * 256).encode()) <= MAX_SORT_KEY_BYTES
