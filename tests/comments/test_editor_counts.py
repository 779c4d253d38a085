"""The editor's grid shows each key's open comments, read for the whole page in one
statement: a page costs the same number of statements however many of its keys have
comments."""

from loko.auth.service import actor_for_api_key
from loko.comments import service as comments
from loko.workspace.editor import EditorFilters, editor_page
from tests.integration.test_query_counts import counted_statements

KEYS = 60


def _page(app, world):
    with app.app_context():
        actor = actor_for_api_key(world.credentials["write_key"]["bearer"])
        return editor_page(actor, world.project_id, EditorFilters(), limit=KEYS)


def _statements(app, world) -> int:
    with counted_statements(app) as statements:
        _page(app, world)
    return len(statements)


def _keys(app, world, as_caller) -> list[str]:
    items = [{"key": f"key.{index:03d}", "value": f"Value {index}"} for index in range(KEYS)]
    body = {"operation": "bulk-upsert", "fileName": "common", "languageCode": "en", "translations": items}
    response = as_caller("write_key").put(f"/api/projects/{world.project_id}/translations", json=body)
    assert response.status_code == 200, response.json
    return [row.id for row in _page(app, world).rows]


def _comment_on(app, world, translation_ids, times: int) -> None:
    with app.app_context():
        actor = actor_for_api_key(world.credentials["write_key"]["bearer"])
        for translation_id in translation_ids:
            for number in range(times):
                comments.add_comment(actor, world.project_id, translation_id, f"Question {number}")


def test_a_page_costs_the_same_statements_however_many_keys_have_comments(app, world, as_caller):
    ids = _keys(app, world, as_caller)
    _comment_on(app, world, ids[:1], 1)
    few = _statements(app, world)
    _comment_on(app, world, ids, 2)
    many = _statements(app, world)
    assert many == few


def test_each_row_counts_its_open_comments_only(app, world, as_caller):
    ids = _keys(app, world, as_caller)
    _comment_on(app, world, ids[:2], 2)
    with app.app_context():
        actor = actor_for_api_key(world.credentials["write_key"]["bearer"])
        first = comments.list_comments(actor, world.project_id, ids[0])[0]
        comments.update_comment(actor, world.project_id, ids[0], first["id"], {"resolved": True})
    counts = [row.open_comments for row in _page(app, world).rows]
    assert counts[:3] == [1, 2, 0]
    assert sum(counts) == 3
