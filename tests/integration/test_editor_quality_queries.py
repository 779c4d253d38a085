"""The editor's quality filters and columns at the service level: the issues and review
states of a page's values cost one statement whatever the page holds, and the "With
issues" and "Needs review" filters read their indexes on both databases."""

import pytest

from loko.workspace.editor import ANY_CHECK, EditorFilters
from tests.integration.test_editor_queries import _count, api, keys, page, statements  # noqa: F401
from tests.translation_factories import ProjectApi


@pytest.fixture
def flawed(api: ProjectApi) -> ProjectApi:  # noqa: F811 - the api fixture
    """200 keys: every third German value with a trailing space, every fifth with a double
    space, and every seventh waiting for a review (its source changed)."""
    api.upsert("en", {f"key.{i:03d}": f"Value {i}" for i in range(200)})
    german = {f"key.{i:03d}": f"Wert {i}" + (" " if i % 3 == 0 else "") for i in range(200)}
    german |= {f"key.{i:03d}": f"Der  Wert {i}" for i in range(0, 200, 5)}
    api.upsert("de", german)
    api.upsert("en", {f"key.{i:03d}": f"New value {i}" for i in range(0, 200, 7)})
    return api


def test_the_page_shows_the_issues_and_states_of_its_values(flawed, page):  # noqa: F811
    rows = {row.key: row for row in page(languages=("de",), limit=200).rows}
    assert [issue.check for issue in rows["key.000"].issues["de"]] == ["double-space"]
    assert [issue.check for issue in rows["key.003"].issues["de"]] == ["whitespace"]
    assert rows["key.003"].issues["de"][0].fix == "Wert 3"
    assert rows["key.007"].states["de"] == "needs-review"
    assert rows["key.001"].issues == {}


def test_the_issues_filter_finds_the_keys_with_any_issue_or_one_check(flawed, page):  # noqa: F811
    def found(check):
        return len(page(EditorFilters(issues=check), languages=("de",), limit=200).rows)

    assert found(ANY_CHECK) == len({i for i in range(200) if i % 3 == 0 or i % 5 == 0})
    assert found("double-space") == 40


def test_the_needs_review_filter_finds_the_values_whose_source_changed(flawed, page):  # noqa: F811
    shown = page(EditorFilters(needs_review=True), languages=("de",), limit=200)
    assert keys(shown) == [("common", f"key.{i:03d}") for i in range(0, 200, 7)]


@pytest.mark.parametrize(
    "filters",
    [
        EditorFilters(),
        EditorFilters(issues=ANY_CHECK),
        EditorFilters(issues="whitespace"),
        EditorFilters(needs_review=True),
    ],
    ids=["none", "any-issue", "one-check", "needs-review"],
)
def test_statements_do_not_grow_with_the_issues_and_filters(app, flawed, page, filters):  # noqa: F811
    # A search too short for the memory's trigram index matches nothing: the empty page.
    clean = _count(app, lambda: page(EditorFilters(search="§¤"), languages=("de",), limit=5))
    full = _count(app, lambda: page(filters, languages=("de",), limit=200))
    # The empty page reads neither values, nor issues, nor comments, nor screenshots, nor tags.
    assert full == clean + 5


def _plan_of(app, page, filters) -> str:  # noqa: F811
    from loko.extensions import db

    with statements(app) as seen:
        page(filters, languages=("de",))
    statement, parameters = next(s for s in seen if "ORDER BY translations.file_name" in s[0])
    with app.app_context():
        connection = db.session.connection()
        explain = "EXPLAIN QUERY PLAN " if connection.dialect.name == "sqlite" else "EXPLAIN "
        if connection.dialect.name == "postgresql":
            # A table of a hundred rows is read whole, whatever its indexes: the plan asked
            # for is the one of a table too large for that, where the index must serve.
            connection.exec_driver_sql("SET LOCAL enable_seqscan = off")
        rows = connection.exec_driver_sql(explain + statement, parameters).all()
        db.session.rollback()
    return "\n".join(str(row[-1]) for row in rows)


@pytest.mark.parametrize(
    ("filters", "index"),
    [
        (EditorFilters(issues=ANY_CHECK), "ix_value_issues_project_"),
        (EditorFilters(issues="whitespace"), "ix_value_issues_project_"),
        (EditorFilters(needs_review=True), "ix_translation_values_needs_review"),
    ],
    ids=["any-issue", "one-check", "needs-review"],
)
def test_the_filters_read_their_index(app, flawed, page, filters, index):  # noqa: F811
    plan = _plan_of(app, page, filters)
    assert index in plan
    assert "SCAN value_issues" not in plan and "Seq Scan on value_issues" not in plan
    assert "SCAN translation_values" not in plan and "Seq Scan on translation_values" not in plan
