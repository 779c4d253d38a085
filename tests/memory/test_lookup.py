"""The memory's lookups against a real database: exact and fuzzy matches, scores, the
length window, placeholders, other organizations, TMX units, and freshness (a value
written after the index's last refresh is found all the same)."""

import pytest

from loko.auth import policy
from loko.memory import index, service
from loko.translations.service import delete_translation
from tests.factories import add_language, make_org, make_project, make_user


@pytest.fixture
def org(memory):
    project = memory.project("Web")
    memory.write(
        project,
        "en",
        {
            "save": "Save the file",
            "greet": "Hello {name}, welcome back",
            "cancel": "Cancel",
            "long": "The quick brown fox jumps over the lazy dog near the river bank",
        },
    )
    memory.write(
        project,
        "de",
        {
            "save": "Datei speichern",
            "greet": "Hallo {name}, willkommen zurück",
            "cancel": "Abbrechen",
            "long": "Der schnelle braune Fuchs springt über den faulen Hund am Flussufer",
        },
    )
    service.refresh_index()
    return memory


def lookup(memory, text, **options):
    return service.lookup(memory.organization_id, "en", "de", text, reach=memory.reach(), **options)


def test_an_exact_match_scores_100(org):
    [match] = lookup(org, "Save the file")
    assert (match["text"], match["score"], match["origin"]) == ("Datei speichern", 100, "project")
    assert (match["key"], match["file"], match["projectName"]) == ("save", "app", "Web")
    assert match["updatedAt"] is not None


def test_a_near_text_matches_with_a_lower_score(org):
    [match] = lookup(org, "Save the files")
    assert match["text"] == "Datei speichern"
    assert 90 <= match["score"] < 100


def test_matches_below_the_minimum_score_are_left_out(org):
    assert lookup(org, "Save the files", min_score=99) == []


def test_a_long_text_matches_with_a_word_changed(org):
    [match] = lookup(org, "The quick brown cat jumps over the lazy dog near the river bank")
    assert match["key"] == "long"
    assert match["score"] >= 90


def test_the_length_window_leaves_out_texts_too_long_to_reach_the_score(org):
    assert lookup(org, "Save", min_score=60) == []
    assert [m["key"] for m in lookup(org, "Save", min_score=40)] == ["save"]


def test_placeholders_match_whatever_their_syntax(org):
    [match] = lookup(org, "Hello {user}, welcome back")
    assert (match["key"], match["score"]) == ("greet", 100)
    # Another syntax matches too, below 100: the translation's placeholder cannot stand for it.
    [match] = lookup(org, "Hello %s, welcome back")
    assert (match["key"], match["score"], match["placeholdersDiffer"]) == ("greet", 99, True)
    [match] = lookup(org, "Hello {{user}}, welcome back")
    assert match["score"] == 99


def test_another_organization_s_values_are_not_found(memory, app):
    other = make_org(make_user("elsewhere@example.test"), "Elsewhere")
    project = make_project(other, name="Theirs")
    for code in ("en", "de"):
        add_language(project, code)
    ours = memory.project("Ours")
    memory.write(ours, "en", {"save": "Save the file"})
    memory.write(ours, "de", {"save": "Datei speichern"})
    service.refresh_index()
    everything = policy.MemoryReach(None, True)
    assert service.lookup(other.id, "en", "de", "Save the file", reach=everything) == []


def test_a_trashed_key_is_not_found(org):
    [match] = lookup(org, "Cancel")
    delete_translation(org.actor(), org.projects["Web"], match["translationId"], permanent=False)
    assert lookup(org, "Cancel") == []


def test_a_value_written_after_the_refresh_is_found(org):
    org.write(org.projects["Web"], "en", {"fresh": "Upload a new picture"})
    org.write(org.projects["Web"], "de", {"fresh": "Ein neues Bild hochladen"})
    [match] = lookup(org, "Upload a new picture")
    assert match["text"] == "Ein neues Bild hochladen"


def test_a_changed_value_is_found_by_its_new_text_only(org):
    org.write(org.projects["Web"], "en", {"save": "Store the document"})
    assert [m["text"] for m in lookup(org, "Store the document")] == ["Datei speichern"]
    assert lookup(org, "Save the file", min_score=95) == []
    service.refresh_index()
    assert [m["text"] for m in lookup(org, "Store the document")] == ["Datei speichern"]
    assert lookup(org, "Save the file", min_score=95) == []


def test_the_refresh_reads_only_the_writes_since_the_last_one(org):
    assert service.refresh_index()["historyRead"] == 0
    org.write(org.projects["Web"], "fr", {"save": "Enregistrer le fichier"})
    assert service.refresh_index()["entriesChanged"] == 1


def test_excluded_keys_are_left_out(org):
    [match] = lookup(org, "Cancel")
    assert lookup(org, "Cancel", exclude={match["translationId"]}) == []


def test_a_key_without_the_target_language_is_no_match(org):
    org.write(org.projects["Web"], "en", {"lonely": "Only in English here"})
    assert lookup(org, "Only in English here") == []


def test_tmx_units_are_matches(org):
    service.import_tmx(org.organization_id, TMX)
    [match] = lookup(org, "Open the settings")
    assert (match["text"], match["origin"], match["key"], match["score"]) == (
        "Einstellungen öffnen",
        "tmx",
        None,
        100,
    )


def test_lookup_many_finds_exact_matches_at_once(org):
    found = service.lookup_many(
        org.organization_id,
        "en",
        "de",
        ["Cancel", "Hello {user}, welcome back", "Nothing like it"],
        reach=org.reach(),
    )
    assert {text: match["text"] for text, match in found.items()} == {
        "Cancel": "Abbrechen",
        "Hello {user}, welcome back": "Hallo {user}, willkommen zurück",
    }


def test_lookup_many_adds_fuzzy_matches_below_100(org):
    found = service.lookup_many(
        org.organization_id, "en", "de", ["Save the files"], reach=org.reach(), min_score=80
    )
    assert found["Save the files"]["text"] == "Datei speichern"
    assert found["Save the files"]["score"] < 100


def test_a_rebuild_finds_the_same_matches(org):
    before = lookup(org, "Save the files")
    index.rebuild()
    assert lookup(org, "Save the files") == before


TMX = b"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE tmx SYSTEM "tmx14.dtd">
<tmx version="1.4">
  <header creationtool="test" creationtoolversion="1" datatype="plaintext" segtype="sentence"
          adminlang="en" srclang="en" o-tmf="test"/>
  <body>
    <tu><tuv xml:lang="en"><seg>Open the settings</seg></tuv>
        <tuv xml:lang="de"><seg>Einstellungen \xc3\xb6ffnen</seg></tuv></tu>
  </body>
</tmx>
"""
