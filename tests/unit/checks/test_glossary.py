"""Glossary terms: a term of the source wants its translation; a forbidden one must not be used."""

from loko.checks import glossary
from loko.checks.glossary import GlossaryTerm
from tests.unit.checks import messages

FILE = GlossaryTerm("file", "Datei")
DIRECTORY_FORBIDDEN = GlossaryTerm("folder", "Verzeichnis", forbidden=True)


def test_an_empty_glossary_raises_nothing():
    assert messages(glossary, "Akte speichern", "Save the file") == []


def test_a_missing_translation_is_named():
    assert messages(glossary, "Akte speichern", "Save the file", glossary=(FILE,)) == [
        "The source has the glossary term 'file'; the value lacks its translation 'Datei'."
    ]


def test_the_translation_may_be_part_of_a_compound():
    assert messages(glossary, "Dateiname ändern", "Change the file name", glossary=(FILE,)) == []


def test_the_term_is_found_in_the_source_as_a_whole_word_only():
    assert messages(glossary, "Profil öffnen", "Open profile", glossary=(FILE,)) == []


def test_terms_ignore_case_by_default():
    assert messages(glossary, "DATEI speichern", "Save FILE", glossary=(FILE,)) == []


def test_a_case_sensitive_term_must_match_case():
    term = GlossaryTerm("Loko", "Loko", case_sensitive=True)
    assert messages(glossary, "loko öffnen", "Open Loko", glossary=(term,)) == [
        "The source has the glossary term 'Loko'; the value lacks its translation 'Loko'."
    ]


def test_a_forbidden_translation_is_flagged():
    assert messages(glossary, "Verzeichnis öffnen", "Open folder", glossary=(DIRECTORY_FORBIDDEN,)) == [
        "The value uses 'Verzeichnis', which the glossary forbids for 'folder'."
    ]


def test_a_forbidden_translation_not_used_passes():
    assert messages(glossary, "Ordner öffnen", "Open folder", glossary=(DIRECTORY_FORBIDDEN,)) == []


def test_a_forbidden_term_in_a_source_value_is_named():
    login = GlossaryTerm("login", "login", forbidden=True)
    assert messages(glossary, "Enter your login", None, "en", glossary=(login,)) == [
        "The value uses 'login', a term the glossary forbids."
    ]
    assert messages(glossary, "Enter your logins", None, "en", glossary=(login,)) == []
