"""Finding a glossary's terms in a text, without a database: whole words as the check finds
them, any case unless the term is case sensitive, terms that start with a sign, the longest
first; and the check's terms for a source value and for a translation."""

from loko.checks.glossary import GlossaryTerm
from loko.glossary.matching import CompiledGlossary, Entry


def entry(term, translations=(), case_sensitive=False, forbidden=False, language="en"):
    return Entry(f"id-{term}", language, term, None, "", case_sensitive, forbidden, tuple(translations))


def found(glossary, text, source_language="en"):
    return [e.term for e in glossary.index(source_language).find(text)]


def test_terms_are_found_as_whole_words_in_any_case():
    glossary = CompiledGlossary([entry("file"), entry("file name"), entry("profile picture")])
    assert found(glossary, "Change the File name of your profile") == ["file name", "file"]


def test_a_case_sensitive_term_is_found_in_its_case_only():
    glossary = CompiledGlossary([entry("Go", case_sensitive=True)])
    assert found(glossary, "Written in Go") == ["Go"]
    assert found(glossary, "Let's go") == []


def test_a_term_starting_with_a_sign_is_found():
    glossary = CompiledGlossary([entry(".NET"), entry("C++")])
    assert found(glossary, "Use C++ or .NET") == [".NET", "C++"]


def test_terms_of_the_base_language_serve_a_regional_source():
    glossary = CompiledGlossary([entry("file"), entry("Datei", language="de")])
    assert found(glossary, "file Datei", "en-US") == ["file"]


def test_a_translation_gets_the_expected_and_forbidden_translations():
    glossary = CompiledGlossary(
        [entry("file", [("de", "Datei", False), ("de", "Akte", True), ("fr", "fichier", False)])]
    )
    assert glossary.check_terms("de-AT", "en", "Save the file", "x") == (
        GlossaryTerm("file", "Datei"),
        GlossaryTerm("file", "Akte", forbidden=True),
    )


def test_a_source_value_gets_the_forbidden_terms_it_holds():
    glossary = CompiledGlossary([entry("login", forbidden=True), entry("file", [("de", "Datei", False)])])
    assert glossary.check_terms("en", "en", None, "Enter your login file") == (
        GlossaryTerm("login", "login", forbidden=True),
    )
