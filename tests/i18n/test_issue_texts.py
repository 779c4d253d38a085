"""What the checks found, on the pages: every message a check says (run here over samples of
each of its shapes) has its pattern in loko/web/issue_texts.py, a page shows it in the page's
language (in the pseudo-locale, each message and each translated word in it wrapped in
[[...]]), English shows it exactly as the check said it, and the table holds no pattern that
no check says."""

import re

import pytest
from flask_babel import force_locale

from loko import checks
from loko.checks.glossary import GlossaryTerm
from loko.checks.registry import CHECKS
from loko.web import issue_texts
from loko.web.issue_texts import CLAUSES, ISSUE_TEXTS, PHRASES, RUNS, issue_text, refused_text
from loko.web.refusals import page_message
from tests.i18n.conftest import PSEUDO
from tests.pages.conftest import PageClient
from tests.translation_factories import ProjectApi

Target = checks.Target
ENDS = "The value ends with no punctuation; the source with a full stop."
ENDS_SHOWN = "[[The value ends with [[no punctuation]]; the source with [[a full stop]].]]"
DOUBLE = "The value has two spaces in a row; the source has none."
FORBIDDEN = GlossaryTerm("click", "klicken", forbidden=True)
SAMPLES = (
    Target("a  b", "de", "a b", "en"),
    Target("Delete the selected keys", "de", "Delete the selected keys", "en"),
    Target("abcdef", "de", "abc", "en", max_length=3),
    Target("Siehe", "de", "See https://a.example/x", "en"),
    Target("Siehe", "de", "See https://a.example/x or mail help@b.example", "en"),
    Target("Click to click", "en", None, None, glossary=(GlossaryTerm("click", "click", forbidden=True),)),
    Target("Hier klicken", "de", "Click here", "en", glossary=(FORBIDDEN,)),
    Target("Hier tippen", "de", "Open the file", "en", glossary=(GlossaryTerm("file", "Datei"),)),
    Target("Hallo", "de", "Hello.", "en"),
    Target("Hallo?", "de", "Hello!", "en"),
    Target("Hallo:", "de", "Hello;", "en"),
    Target("Hallo…", "de", "Hello", "en"),
    Target(" Hallo", "de", "Hello", "en"),
    Target("Hallo\t", "de", "Hello\n", "en"),
    Target("  Hallo \r\n\n", "de", "\tHello", "en"),
    Target("\t\tHallo\r\r", "de", "Hello", "en"),
    Target("{n, plural, other {# Dateien}}", "ar", "{n, plural, one {# file} other {# files}}", "en"),
    Target("{n, plural, one {a} two {b} few {c} many {d} other {e}}", "ar", "{n, plural, other {x}}", "en"),
    Target("{n, plural, one {# ファイル} other {# ファイル}}", "ja", "{n, plural, other {# files}}", "en"),
    Target("{n, plural, one {# x} few {# y} other {# z}}", "ja", "{n, plural, other {# files}}", "en"),
    Target("{g, select, male {er}}", "de", "{g, select, male {he} other {they}}", "en"),
    Target("{g, select, male {er} other {sie}}", "de", "{g, select, male {he} female {sie} other {x}}", "en"),
    Target("{g, select, x {a} y {b} other {c}}", "de", "{g, select, other {they}}", "en"),
    Target("{g, select, x {a} other {c}}", "de", "{g, select, other {they}}", "en"),
    Target("Dateien", "de", "{n, plural, one {# file} other {# files}}", "en"),
    Target("{n, plural, one {a}", "de", "{n, plural, one {# file} other {# files}}", "en"),
    Target("{n, plural, one {a} }}", "de", "{n, plural, one {# file} other {# files}}", "en"),
    Target("{n, plural, one {a} one {b} other {c}}", "de", "{n, plural, one {# file} other {# files}}", "en"),
    Target("{, plural, other {a}}", "de", "{n, plural, other {# files}}", "en"),
    Target("{n, , other {a}}", "de", "{n, plural, other {# files}}", "en"),
    Target("{n plural, other {a}}", "de", "{n, plural, other {# files}}", "en"),
    Target("{n, plural other {a}}", "de", "{n, plural, other {# files}}", "en"),
    Target("{n, plural, other a}}", "de", "{n, plural, other {# files}}", "en"),
    Target("{n, plural, {a}}", "de", "{n, plural, other {# files}}", "en"),
    Target("{a, select, other {" * 60 + "x" + "}}" * 60, "de", "{n, plural, other {x}}", "en"),
    Target("Hallo", "de", "Hello %s", "en"),
    Target("Hallo", "de", "Hello %s, %d", "en"),
    Target("Hallo %s %d", "de", "Hello", "en"),
    Target("Hallo %d", "de", "Hello", "en"),
    Target("Hallo {name}", "de", "Hello %s", "en"),
    Target("Hallo %s %d", "de", "Hello {name}", "en"),
    Target("Hallo", "de", "<b>Hello</b>", "en"),
    Target("<i>Hallo", "de", "Hello", "en"),
    Target("<i>Hallo</i> <u>x</u>", "de", "Hello", "en"),
    Target("<i>Hallo</i>", "de", "<b>Hello</b>", "en"),
    Target("<i>Hallo</b>", "de", "<b>Hello</b>", "en"),
    Target("<b>Hallo</i></b>", "de", "<b>Hello</b>", "en"),
    Target("<b><i>Hallo</b></i>", "de", "<b><i>Hello</i></b>", "en"),
    Target("<b>Hallo</b></b>", "de", "<b>Hello</b>", "en"),
)


def _found() -> list[checks.Issue]:
    return [issue for target in SAMPLES for issue in checks.run(target)]


@pytest.fixture
def config_overrides(request, pseudo_locale_dir):
    """The pseudo-locale, unless a test asks for the shipped catalogs."""
    shipped = getattr(request, "param", None)
    return shipped or {"LOKO_LOCALE_DIR": str(pseudo_locale_dir), "LOKO_DEFAULT_LOCALE": PSEUDO}


def test_the_samples_cover_every_check():
    assert {issue.check for issue in _found()} == set(CHECKS)


def test_every_message_is_shown_in_the_page_language(app):
    with app.test_request_context(), force_locale(PSEUDO):
        shown = {issue.message: issue_text(issue.message) for issue in _found()}
    untranslated = [message for message, text in shown.items() if not text.startswith("[[")]
    assert untranslated == []
    assert {message: re.sub(r"\[\[|\]\]", "", text) for message, text in shown.items()} == {
        message: message for message in shown
    }


def test_english_shows_each_message_as_the_check_said_it(app):
    with app.test_request_context(), force_locale("en"):
        assert {issue.message: issue_text(issue.message) for issue in _found()} == {
            issue.message: issue.message for issue in _found()
        }


@pytest.mark.parametrize(
    ("message", "shown"),
    [
        # the words in a message translated too
        (
            "The value ends with no punctuation; the source with a full stop.",
            "[[The value ends with [[no punctuation]]; the source with [[a full stop]].]]",
        ),
        (
            "The value starts with 2 spaces then a tab; the source with no whitespace.",
            "[[The value starts with [[[[2 spaces]] then [[a tab]]]]; the source with [[no whitespace]].]]",
        ),
        # the clauses of the placeholder and tag checks, each translated and joined again
        ("Missing tag <b>; extra tags <i>, <u>.", "[[[[[[Missing tag <b>]]; [[extra tags <i>, <u>]]]].]]"),
        # a message about both ends, sentence by sentence
        (
            "The value starts with a tab; the source with no whitespace. "
            "The value ends with 2 newlines; the source with no whitespace.",
            "[[The value starts with [[a tab]]; the source with [[no whitespace]].]] "
            "[[The value ends with [[2 newlines]]; the source with [[no whitespace]].]]",
        ),
        # a stored issue with several findings, finding by finding
        (
            "The value uses 'click', a term the glossary forbids. "
            "The source's plural on {n} is missing from the value.",
            "[[The value uses 'click', a term the glossary forbids.]] "
            "[[The source's plural on {n} is missing from the value.]]",
        ),
    ],
)
def test_a_message_is_translated_part_by_part(app, message, shown):
    with app.test_request_context(), force_locale(PSEUDO):
        assert issue_text(message) == shown


def test_every_pattern_is_one_a_check_says(app, monkeypatch):
    said = set()

    def recording(function):
        def record(*args, **kwargs):
            said.add(args[0])
            return function(*args, **kwargs)

        return record

    monkeypatch.setattr(issue_texts, "gettext", recording(issue_texts.gettext))
    monkeypatch.setattr(issue_texts, "_plural", recording(issue_texts._plural))
    with app.test_request_context(), force_locale(PSEUDO):
        for issue in _found():
            issue_text(issue.message)
    table = {message._args[0] for message in (*ISSUE_TEXTS, *CLAUSES, *PHRASES, *RUNS.values())}
    assert table - said == set()


@pytest.mark.parametrize("config_overrides", [{"LOKO_DEFAULT_LOCALE": "de"}], indirect=True)
def test_a_shipped_language_words_what_the_checks_found_naturally(app):
    with app.test_request_context(), force_locale("de"):
        assert issue_text("The value ends with no punctuation; the source with a full stop.") == (
            "Ende des Werts: kein Satzzeichen; Ende der Quelle: ein Punkt."
        )
        assert issue_text("Missing placeholder {name}; extra placeholders %d, %s.") == (
            "Fehlender Platzhalter {name}; überzählige Platzhalter %d, %s."
        )
    with app.test_request_context(), force_locale("ar"):
        assert issue_text("The value ends with 3 spaces; the source with no whitespace.") == (
            "نهاية القيمة: 3 مسافات؛ ونهاية المصدر: بلا مسافة بيضاء."
        )
        assert issue_text("The value ends with 11 spaces; the source with no whitespace.") == (
            "نهاية القيمة: 11 مسافةً؛ ونهاية المصدر: بلا مسافة بيضاء."
        )


def test_a_message_no_check_says_is_shown_as_it_is(app):
    with app.test_request_context(), force_locale(PSEUDO):
        assert issue_text("Something the checks never say.") == "Something the checks never say."


def test_the_editor_shows_what_the_checks_found_in_the_page_language(app, world, as_caller):
    api = ProjectApi(as_caller("project_admin"), world.project_id)
    api.add_language("en")
    api.add_language("de")
    api.create("greeting", {"en": "Hello.", "de": "Hallo"})
    page = PageClient(app, world.credentials["project_admin"]).get(
        f"/projects/{world.project_id}/editor?source=en&lang=de"
    )
    assert page.status_code == 200
    assert "[[The value ends with [[no punctuation]]; the source with [[a full stop]].]]" in page.get_data(
        as_text=True
    )


def refused_save(api: ProjectApi, owner) -> str:
    """A German value the punctuation check, at ``refuse``, does not let through: the REST
    API's refusal, in English."""
    api.add_language("en")
    api.add_language("de")
    api.create("greeting", {"en": "Hello."})
    levels = owner.put(api.url(), json={"checks": {"punctuation": "refuse", "whitespace": "refuse"}})
    assert levels.status_code == 200, levels.json
    refused = api.patch(
        "/translations", {"key": "greeting", "fileName": "common", "updates": {"de": {"value": "Hallo "}}}
    )
    assert refused.status_code == 400, refused.json
    return refused.json["error"]


def test_a_checks_refusal_of_a_save_is_shown_in_the_page_language(app, world, as_caller):
    error = refused_save(ProjectApi(as_caller("project_admin"), world.project_id), as_caller("project_admin"))
    assert error == (
        "updates.de.value: whitespace: The value ends with a space; the source with no whitespace. "
        "updates.de.value: punctuation: The value ends with no punctuation; the source with a full stop."
    )
    with app.test_request_context(), force_locale(PSEUDO):
        assert page_message(error) == (
            "updates.de.value: whitespace: [[The value ends with [[a space]]; the source with "
            "[[no whitespace]].]] updates.de.value: punctuation: [[The value ends with "
            "[[no punctuation]]; the source with [[a full stop]].]]"
        )
    with app.test_request_context(), force_locale("en"):
        assert page_message(error) == error


def test_the_scripts_get_the_checks_messages_with_the_refusals(app, world):
    owner = PageClient(app, world.credentials["org_owner"])
    issues = owner.get(f"/locale/{PSEUDO}/refusals.json").json["issues"]
    sentences = dict(issues["sentences"])
    assert sentences["The value ends with %(value_end)s; the source with %(source_end)s."] == (
        "[[The value ends with %(value_end)s; the source with %(source_end)s.]]"
    )
    assert sentences["The value has %(num)s characters; the key holds at most %(limit)s."] == {
        "one": "[[The value has %(num)s character; the key holds at most %(limit)s.]]",
        "other": "[[The value has %(num)s characters; the key holds at most %(limit)s.]]",
    }
    assert issues["phrases"]["a full stop"] == "[[a full stop]]"
    assert issues["runs"]["space"]["other"] == "[[%(num)s spaces]]"
    assert issues["next"] == "[[%(clauses)s; %(clause)s]]"


def test_a_refusal_naming_a_check_but_quoting_no_checks_message_is_left_to_the_refusals(app):
    with app.test_request_context(), force_locale(PSEUDO):
        assert refused_text("updates.de.value: punctuation: Something else.") is None
        assert page_message("updates.de.value: punctuation: Something else.") == (
            "updates.de.value: punctuation: Something else."
        )


def test_a_refusal_is_read_from_its_issues_whatever_the_keys_hold(app):
    issues = [
        {"fileName": "m.json", "key": key, "language": "de", "check": check, "message": text}
        for key, check, text in (("Hello. Bye", "punctuation", ENDS), ("Bye. Now", "double-space", DOUBLE))
    ]
    message = " ".join(f"m.json {i['key']} (de): {i['check']}: {i['message']}" for i in issues)
    with app.test_request_context(), force_locale(PSEUDO):
        assert page_message(message, issues=issues) == (
            f"m.json Hello. Bye (de): punctuation: {ENDS_SHOWN} "
            f"m.json Bye. Now (de): double-space: [[{DOUBLE}]]"
        )


def test_a_count_that_is_no_plain_number_is_shown_as_written(app):
    message = "m.json k (de): max-length: The value has ² characters; the key holds at most 5."
    with app.test_request_context(), force_locale(PSEUDO):
        assert issue_text("The value has ² characters; the key holds at most 5.") == (
            "[[The value has ² characters; the key holds at most 5.]]"
        )
        assert issue_text("The value has 007 characters; the key holds at most 5.") == (
            "[[The value has 007 characters; the key holds at most 5.]]"
        )
        assert page_message(message) == (
            "m.json k (de): max-length: [[The value has ² characters; the key holds at most 5.]]"
        )
