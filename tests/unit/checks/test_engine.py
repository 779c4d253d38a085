"""The engine: the registry of checks, ``run`` and ``run_many``."""

import gc

import pytest

from loko.checks import Issue, Target, run, run_many
from loko.checks.registry import CHECKS

CODES = [
    "placeholders",
    "icu-syntax",
    "tags",
    "whitespace",
    "double-space",
    "punctuation",
    "urls",
    "max-length",
    "untranslated",
    "glossary",
]


def test_the_registry_lists_every_check_by_code_in_the_editors_order():
    assert list(CHECKS) == CODES


@pytest.mark.parametrize("code", CODES)
def test_every_check_has_a_title_and_a_check(code):
    module = CHECKS[code]
    assert (module.CODE, bool(module.TITLE), callable(module.check)) == (code, True, True)


@pytest.mark.parametrize("code", CODES)
def test_no_check_flags_an_empty_value(code):
    assert (
        CHECKS[code].check(Target(value="", language="de", source="Hello {name}!", source_language="en"))
        == []
    )


@pytest.mark.parametrize("code", [code for code in CODES if code not in ("max-length", "icu-syntax")])
def test_a_check_that_compares_with_the_source_does_nothing_without_one(code):
    assert CHECKS[code].check(Target(value="Hallo  {nom} ", language="de", source=None)) == []


def test_run_gives_every_checks_issues():
    target = Target(value="Hallo {nom}", language="de", source="Hello {name}!", source_language="en")
    assert [issue.check for issue in run(target)] == ["placeholders", "punctuation"]


def test_run_runs_only_the_named_checks():
    target = Target(value="Hallo {nom}", language="de", source="Hello {name}!", source_language="en")
    assert run(target, ["punctuation"]) == [
        Issue(
            "punctuation",
            "The value ends with no punctuation; the source with an exclamation mark.",
            "Hallo {nom}!",
        )
    ]


def test_run_many_gives_each_values_issues_in_order():
    source = "Delete %d files?"
    targets = [
        Target(value="%d Dateien löschen?", language="de", source=source, source_language="en"),
        Target(value="Supprimer %s fichiers", language="fr", source=source, source_language="en"),
        Target(value="Eliminar %d archivos?", language="es", source=source, source_language="en"),
    ]
    assert [[issue.check for issue in issues] for issues in run_many(targets)] == [
        [],
        ["placeholders", "punctuation"],
        [],
    ]


def test_run_many_leaves_the_garbage_collector_as_it_found_it():
    run_many([Target(value="Hallo", language="de", source="Hello", source_language="en")])
    assert gc.isenabled()


@pytest.mark.parametrize(
    ("value", "source", "language"),
    [
        pytest.param("Bonjour {nom}", "Hello {name}", "fr", id="placeholders"),
        pytest.param("Wert:", "Value: ", "de", id="whitespace"),
        pytest.param("Datei  speichern", "Save file", "de", id="double-space"),
        pytest.param("حذف الملف.", "Delete file?", "ar", id="punctuation"),
        pytest.param("Nom", "Name:", "fr", id="french punctuation"),
    ],
)
def test_a_fixed_value_passes_the_check_that_fixed_it(value, source, language):
    target = Target(value=value, language=language, source=source, source_language="en")
    (issue,) = run(target)
    assert CHECKS[issue.check].check(Target(issue.fix, language, source, "en")) == []


def test_run_many_keeps_the_order_of_values_of_interleaved_sources():
    targets = [
        Target(value="Speichern?", language="de", source="Save", source_language="en"),
        Target(value="Löschen", language="de", source="Delete?", source_language="en"),
        Target(value="Enregistrer", language="fr", source="Save", source_language="en"),
        Target(value="Supprimer.", language="fr", source="Delete?", source_language="en"),
    ]
    assert [[issue.fix for issue in issues] for issues in run_many(iter(targets))] == [
        ["Speichern"],
        ["Löschen?"],
        [],
        ["Supprimer\u00a0?"],
    ]
