"""The editor's search through the memory's trigram index finds exactly the keys the plain
scan finds, whether the index is fresh or behind the latest writes."""

import pytest

from loko.memory import service
from loko.workspace import editor

TERMS = ["quixotic", "QUIXOTIC", "café", "CAFÉ", "key_07", "100%", "a_b", "ab", "zzz-none", "Größe", "rücken"]


@pytest.fixture
def project(memory):
    project_id = memory.project("Web", languages=("en", "de"))
    memory.write(
        project_id,
        "en",
        {
            "key_01": "A quixotic plan",
            "key_02": "Café au lait",
            "key_03": "Save 100% now",
            "key_04": "a_b and axb",
            "key_05": "Größe ändern",
            "key_06": "Nothing special",
            "key_07": "Plain",
        },
    )
    memory.write(project_id, "de", {"key_01": "Ein Plan", "key_06": "Zurück zum Anfang", "key_08": "Rücken"})
    return project_id


def keys_found(memory, project_id: str, term: str) -> list[str]:
    page = editor.editor_page(memory.actor(), project_id, editor.EditorFilters(search=term))
    return [row.key for row in page.rows]


def scanned(memory, project_id: str, term: str, monkeypatch) -> list[str]:
    with monkeypatch.context() as patched:
        patched.setattr(editor, "candidate_keys", lambda _project, _term: None)
        return keys_found(memory, project_id, term)


@pytest.mark.parametrize("term", TERMS)
def test_the_indexed_search_finds_what_the_scan_finds(memory, project, term, monkeypatch):
    service.refresh_index()
    assert keys_found(memory, project, term) == scanned(memory, project, term, monkeypatch)


@pytest.mark.parametrize("term", ["quixotic", "fresh", "Plain"])
def test_values_written_after_the_refresh_are_found(memory, project, term, monkeypatch):
    service.refresh_index()
    memory.write(project, "de", {"key_07": "fresh quixotic words", "key_09": "Plainly fresh"})
    assert keys_found(memory, project, term) == scanned(memory, project, term, monkeypatch)
    assert "key_07" in keys_found(memory, project, term) or term == "Plain"


def test_a_value_changed_after_the_refresh_is_no_longer_found_by_its_old_text(memory, project):
    service.refresh_index()
    memory.write(project, "en", {"key_01": "A sober plan"})
    assert keys_found(memory, project, "quixotic") == []


def test_the_index_narrows_a_rare_term_to_its_keys(memory, project):
    from loko.memory.search import candidate_keys

    service.refresh_index()
    assert len(candidate_keys(project, "quixotic")) == 1
    assert candidate_keys(project, "ab") is None


def test_a_key_in_the_trash_is_not_found_by_the_indexed_search(memory, project):
    from loko.translations.service import bulk_delete

    service.refresh_index()
    bulk_delete(memory.actor(), project, "app", ["key_01"], permanent=False)
    assert keys_found(memory, project, "quixotic") == []


def test_a_key_of_another_project_is_not_found_by_the_indexed_search(memory, project):
    other = memory.project("Other", languages=("en",))
    memory.write(other, "en", {"key_99": "Another quixotic plan"})
    service.refresh_index()
    assert keys_found(memory, project, "quixotic") == ["key_01"]
    assert keys_found(memory, other, "quixotic") == ["key_99"]


def test_an_index_behind_by_more_keys_than_it_narrows_to_leaves_the_search_to_the_walk(
    memory, project, monkeypatch
):
    from loko.memory import search

    service.refresh_index()
    memory.write(project, "de", {"key_02": "frischer Café", "key_03": "Neu", "key_04": "Neu"})
    monkeypatch.setattr(search, "MAX_CANDIDATES", 2)
    assert search.candidate_keys(project, "café") is None
    assert keys_found(memory, project, "café") == ["key_02"]
