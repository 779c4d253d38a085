"""PostgreSQL's fuzzy candidates: sampled shingles of each entry, and every trigram of a text
shorter than 20 characters, read through a btree. A text is found through them alone (the
trigram index is not read); entries changed or removed take their shingles with them; keys
have none."""

import pytest
from sqlalchemy import text

from loko.extensions import db
from loko.memory import index, service

LONG = "The quick brown fox jumps over the lazy dog near the river bank"


@pytest.fixture
def org(memory):
    if db.engine.dialect.name != "postgresql":
        pytest.skip("the shingles are PostgreSQL's")
    project = memory.project("Web")
    memory.write(
        project,
        "en",
        {
            "long": LONG,
            "greet": "Hello {name}, welcome back to the workspace",
            "save": "Save changes",
            "delete": "Delete",
        },
    )
    memory.write(
        project,
        "de",
        {
            "long": "Der schnelle braune Fuchs springt über den faulen Hund am Flussufer",
            "greet": "Hallo {name}, willkommen zurück im Arbeitsbereich",
            "save": "Änderungen speichern",
            "delete": "Löschen",
        },
    )
    service.refresh_index()
    return memory


@pytest.fixture
def without_trigrams(monkeypatch):
    def refused(*_args, **_kwargs):
        raise AssertionError("the trigram index was read")

    monkeypatch.setattr(index, "containing", refused)


def lookup(memory, query, **options):
    return service.lookup(memory.organization_id, "en", "de", query, reach=memory.reach(), **options)


def shingles_of(translation_id: str | None = None) -> int:
    sql = "SELECT count(*) FROM memory_shingles s JOIN memory_entries e ON e.id = s.entry_id"
    if translation_id is None:
        return db.session.execute(text(sql)).scalar_one()
    return db.session.execute(
        text(sql + " WHERE e.translation_id = :id AND e.language_code = 'en'"), {"id": translation_id}
    ).scalar_one()


def orphans() -> int:
    return db.session.execute(
        text("SELECT count(*) FROM memory_shingles WHERE entry_id NOT IN (SELECT id FROM memory_entries)")
    ).scalar_one()


def test_a_long_text_with_a_word_changed_is_found_through_the_shingles(org, without_trigrams):
    [match] = lookup(org, "The quick brown cat jumps over the lazy dog near the river bank")
    assert (match["key"], match["text"]) == (
        "long",
        "Der schnelle braune Fuchs springt über den faulen Hund am Flussufer",
    )
    assert match["score"] >= 90


def test_a_text_with_placeholders_is_found_through_its_parts_between_them(org, without_trigrams):
    [match] = lookup(org, "Hello %s, welcome back to the workspaces")
    assert match["key"] == "greet"
    assert match["score"] >= 90


def test_a_short_text_with_a_letter_changed_is_found_through_its_trigrams(org, without_trigrams):
    [match] = lookup(org, "Save chunges")
    assert (match["key"], match["text"]) == ("save", "Änderungen speichern")


def test_three_characters_find_the_short_text_they_begin(org, without_trigrams):
    assert [match["key"] for match in lookup(org, "Del")] == ["delete"]


def test_a_short_text_keeps_every_trigram(org):
    [match] = lookup(org, "Save changes")
    assert shingles_of(match["translationId"]) >= len("Save changes") - 2


def test_a_changed_value_takes_its_shingles_with_it(org, without_trigrams):
    [match] = lookup(org, LONG)
    before = shingles_of(match["translationId"])
    org.write(org.projects["Web"], "en", {"long": "Every shingle of the old text is gone from the index now"})
    service.refresh_index()
    assert before > 0
    assert orphans() == 0
    assert shingles_of(match["translationId"]) > 0
    assert [m["key"] for m in lookup(org, "Every shingle of the old text has gone from the index")] == [
        "long"
    ]
    assert lookup(org, LONG, min_score=80) == []


def test_a_rebuild_makes_the_same_shingles(org):
    before = db.session.execute(text("SELECT count(*) FROM memory_shingles")).scalar_one()
    db.session.rollback()
    index.rebuild()
    assert db.session.execute(text("SELECT count(*) FROM memory_shingles")).scalar_one() == before
    assert orphans() == 0


def test_keys_have_no_shingles(org):
    keys = db.session.execute(
        text(
            "SELECT count(*) FROM memory_shingles s JOIN memory_entries e ON e.id = s.entry_id "
            "WHERE e.language_code = ''"
        )
    ).scalar_one()
    assert keys == 0
    assert shingles_of() > 0


def test_tmx_units_are_found_through_the_shingles(org, without_trigrams):
    service.import_tmx(org.organization_id, TMX)
    [match] = lookup(org, "Open the account settings of this workspaces")
    assert (match["origin"], match["text"]) == (
        "tmx",
        "Die Kontoeinstellungen dieses Arbeitsbereichs öffnen",
    )


TMX = """<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header srclang="en" datatype="plaintext" segtype="sentence" adminlang="en"
 creationtool="test" creationtoolversion="1" o-tmf="test"/><body>
<tu><tuv xml:lang="en"><seg>Open the account settings of this workspace</seg></tuv>
<tuv xml:lang="de"><seg>Die Kontoeinstellungen dieses Arbeitsbereichs öffnen</seg></tuv></tu>
</body></tmx>""".encode()
