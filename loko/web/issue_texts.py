"""What the checks found, in the page's language. The checks word their issues in English
(the REST API and the MCP server show them so, and the database keeps them so); a page shows
an issue through :func:`issue_text`, which finds the message's pattern in ``ISSUE_TEXTS``
(as :mod:`loko.web.refusals` finds a refusal's), translates it and puts its parameters
back, themselves translated where they are words (a punctuation mark's name, the whitespace
at an end, what the ICU parser expected). The placeholder and tag checks join their
findings with "; ", so their messages are translated clause by clause; the whitespace check
may say two sentences, and a stored issue holds each finding of its check (two forbidden
terms, say), so those are translated sentence by sentence. A message no pattern matches is shown as it is. tests/i18n runs every
check over samples of each of its messages and holds this table to what they say."""

# ruff: noqa: E501 - each message whole, as the check words it, to be found by a search
import re
from functools import cache

from flask_babel import get_translations, gettext, lazy_gettext, lazy_ngettext, ngettext

from loko.web.patterns import compile_patterns, literal_length, match

ISSUE_TEXTS = (
    # loko/checks/double_space.py
    lazy_gettext("The value has two spaces in a row; the source has none."),
    # loko/checks/untranslated.py
    lazy_gettext("The value is the same as the source; it may not be translated yet."),
    # loko/checks/max_length.py
    lazy_ngettext(
        "The value has %(num)s character; the key holds at most %(limit)s.",
        "The value has %(num)s characters; the key holds at most %(limit)s.",
        0,
    ),
    # loko/checks/urls.py
    lazy_gettext("The value lacks the source's address %(addresses)s."),
    lazy_gettext("The value lacks the source's addresses %(addresses)s."),
    # loko/checks/glossary.py
    lazy_gettext("The value uses %(term)s, a term the glossary forbids."),
    lazy_gettext("The value uses %(translation)s, which the glossary forbids for %(term)s."),
    lazy_gettext(
        "The source has the glossary term %(term)s; the value lacks its translation %(translation)s."
    ),
    # loko/checks/punctuation.py and loko/checks/whitespace.py
    # TRANSLATORS: %(value_end)s and %(source_end)s are how each text ends: "a full stop",
    # "no punctuation", "a space then 2 newlines", "no whitespace" (translated on their own).
    lazy_gettext("The value ends with %(value_end)s; the source with %(source_end)s."),
    # TRANSLATORS: %(value_start)s and %(source_start)s are the whitespace each text starts
    # with: "a tab", "2 spaces", "no whitespace" (translated on their own).
    lazy_gettext("The value starts with %(value_start)s; the source with %(source_start)s."),
    # loko/checks/icu_syntax.py (the kind of a choice, plural or selectordinal, is ICU's word)
    # TRANSLATORS: %(kind)s is ICU's keyword (plural, selectordinal) and stays as it is;
    # %(forms)s lists CLDR's categories (one, few); %(language)s is a language code.
    lazy_gettext("The %(kind)s on {%(name)s} lacks the form %(forms)s that %(language)s needs."),
    lazy_gettext("The %(kind)s on {%(name)s} lacks the forms %(forms)s that %(language)s needs."),
    lazy_gettext("The %(kind)s on {%(name)s} has the form %(forms)s, which %(language)s does not use."),
    lazy_gettext("The %(kind)s on {%(name)s} has the forms %(forms)s, which %(language)s does not use."),
    # TRANSLATORS: "select" and "other" are ICU's keywords and stay as they are.
    lazy_gettext("The select on {%(name)s} has no other branch."),
    lazy_gettext("The select on {%(name)s} lacks the source's %(cases)s."),
    lazy_gettext("The select on {%(name)s} has %(cases)s, which the source has not."),
    lazy_gettext("The source's %(kind)s on {%(name)s} is missing from the value."),
    # TRANSLATORS: %(error)s is the ICU parser's error ("Unexpected "}" at position 4"),
    # translated on its own.
    lazy_gettext("The value is not a valid ICU message: %(error)s."),
    # loko/checks/icu.py: the parser's errors, quoted in the message above
    lazy_gettext('Expected %(expected)s at position %(position)s but found "%(found)s"'),
    lazy_gettext('Unexpected "}" at position %(position)s'),
    lazy_gettext("Too deeply nested at position %(position)s"),
    lazy_gettext('Duplicate sub-message selector "%(selector)s" at position %(position)s'),
)

# The clauses the placeholder and tag checks join with "; ": the first capitalized, the
# ones after it not (each as the check words it, so that each language chooses its case).
CLAUSES = (
    lazy_gettext("Missing placeholder %(placeholders)s"),
    lazy_gettext("Missing placeholders %(placeholders)s"),
    lazy_gettext("Extra placeholder %(placeholders)s"),
    lazy_gettext("Extra placeholders %(placeholders)s"),
    lazy_gettext("extra placeholder %(placeholders)s"),
    lazy_gettext("extra placeholders %(placeholders)s"),
    lazy_gettext("Missing tag %(tags)s"),
    lazy_gettext("Missing tags %(tags)s"),
    lazy_gettext("Extra tag %(tags)s"),
    lazy_gettext("Extra tags %(tags)s"),
    lazy_gettext("extra tag %(tags)s"),
    lazy_gettext("extra tags %(tags)s"),
    lazy_gettext("The tags do not nest: %(problem)s"),
    lazy_gettext("the tags do not nest: %(problem)s"),
    # how the tags fail to nest
    lazy_gettext("%(tag)s closes no open %(opening)s"),
    lazy_gettext("%(tag)s closes %(opening)s early"),
    lazy_gettext("%(tag)s is never closed"),
)
# How the clauses are put together again, in the page's language.
# TRANSLATORS: joins two findings of the placeholder or tag check ("Missing tag <b>" and
# "extra tag <i>"); use your language's separator.
NEXT_CLAUSE = lazy_gettext("%(clauses)s; %(clause)s")
# TRANSLATORS: ends the joined findings with your language's full stop.
LAST_CLAUSE = lazy_gettext("%(clauses)s.")

# The words a message's parameter may be.
PHRASES = (
    # loko/checks/punctuation.py: how a text ends
    lazy_gettext("no punctuation"),
    lazy_gettext("a full stop"),
    lazy_gettext("a question mark"),
    lazy_gettext("an exclamation mark"),
    lazy_gettext("a colon"),
    lazy_gettext("a semicolon"),
    lazy_gettext("an ellipsis"),
    # loko/checks/whitespace.py: the whitespace at an end of a text
    lazy_gettext("no whitespace"),
    lazy_gettext("a space"),
    lazy_gettext("a tab"),
    lazy_gettext("a newline"),
    lazy_gettext("a carriage return"),
    # loko/checks/icu.py: what the parser expected
    lazy_gettext("placeholder name"),
    lazy_gettext("placeholder type"),
    lazy_gettext("sub-message selector"),
    lazy_gettext('"," or "}"'),
)
# A run of one kind of whitespace, and runs one after the other.
RUNS = {
    "space": lazy_ngettext("%(num)s space", "%(num)s spaces", 0),
    "tab": lazy_ngettext("%(num)s tab", "%(num)s tabs", 0),
    "newline": lazy_ngettext("%(num)s newline", "%(num)s newlines", 0),
    "carriage return": lazy_ngettext("%(num)s carriage return", "%(num)s carriage returns", 0),
}
# TRANSLATORS: runs of whitespace one after the other: "a space then 2 newlines".
THEN = lazy_gettext("%(before)s then %(after)s")
RUN = re.compile(r"([0-9]+) (space|tab|newline|carriage return)s")
# A count a plural form is chosen by: digits (ASCII, as the checks write them), not too many.
COUNT = re.compile(r"[0-9]{1,9}")
# How deep a parameter may hold another message (an ICU error in the ICU check's message).
DEEPEST = 3
# Where a message holds several sentences: the whitespace check's two when both ends differ,
# and a stored issue's several findings of one check (loko/quality keeps them joined).
SENTENCE = re.compile(r"\. (?=The )")


def _messages(table):
    """Each message id of ``table`` with what renders it: its id, or its two plural forms."""
    for message in table:
        if message._func is ngettext:
            singular, plural = message._args[0], message._args[1]
            yield singular, (singular, plural)
            yield plural, (singular, plural)
        else:
            yield str(message._args[0]), str(message._args[0])


def _by_length(table):
    return sorted(_messages(table), key=lambda message: -literal_length(message[0]))


@cache
def _patterns():
    return compile_patterns(_messages(ISSUE_TEXTS))


@cache
def _clauses():
    return compile_patterns(_messages(CLAUSES))


@cache
def _phrases() -> frozenset[str]:
    return frozenset(str(phrase._args[0]) for phrase in PHRASES)


def _render(key, params: dict) -> str:
    if isinstance(key, tuple):
        # The form is the count's (any other text counts as many); the count is shown as
        # the check wrote it.
        return _plural(*key, params.pop("num"), **params)
    return gettext(key, **params) if params else gettext(key)


def _plural(singular: str, plural: str, count: str, **params) -> str:
    """The plural form for ``count`` (digits; any other text counts as many), with the count
    shown as the check wrote it."""
    number = int(count) if COUNT.fullmatch(count) else 2
    return get_translations().ungettext(singular, plural, number) % {**params, "num": count}


def _translate(patterns, text: str, depth: int = 0) -> str | None:
    if depth > DEEPEST:
        return None
    for literals, names, key in patterns:
        found = match(literals, names, text)
        if found is not None:
            return _render(key, {name: _parameter(value, depth + 1) for name, value in found.items()})
    return None


def _parameter(value: str, depth: int) -> str:
    """A message's variable part: a word, a run of whitespace or a parser's error,
    translated; a name, a code, a term or a list of tokens as it is."""
    if value in _phrases():
        return gettext(value)
    runs = value.split(" then ")
    if len(runs) > 1 or RUN.fullmatch(value):
        described = [_run(run) for run in runs]
        if all(described):
            text = described[0]
            for after in described[1:]:
                text = gettext(THEN._args[0], before=text, after=after)
            return text
    return _translate(_patterns(), value, depth) or _translate(_clauses(), value, depth) or value


def _run(run: str) -> str | None:
    if run in _phrases():
        return gettext(run)
    found = RUN.fullmatch(run)
    if found is None:
        return None
    form = RUNS[found.group(2)]
    return _plural(form._args[0], form._args[1], found.group(1))


def _joined(message: str) -> str | None:
    """A message of clauses joined with "; ", each translated, or None."""
    if not message.endswith("."):
        return None
    translated = []
    for clause in message[:-1].split("; "):
        text = _translate(_clauses(), clause)
        if text is None:
            return None
        translated.append(text)
    joined = translated[0]
    for clause in translated[1:]:
        joined = gettext(NEXT_CLAUSE._args[0], clauses=joined, clause=clause)
    return gettext(LAST_CLAUSE._args[0], clauses=joined)


def issue_text(message):
    """``{{ issue.message | issue_text }}``: what a check found, in the page's language."""
    if not isinstance(message, str) or not message:
        return message
    found = _found_text(message.replace(MISSPELLED, SPELLED))
    return message if found is None else found


def _found_text(message: str) -> str | None:
    """``message`` translated, or None when it is none of the checks' messages."""
    sentences = SENTENCE.split(message)
    sentences = [sentence + "." for sentence in sentences[:-1]] + sentences[-1:]
    if len(sentences) > 1:
        translated = [_translate(_patterns(), sentence) for sentence in sentences]
        if all(translated):
            return " ".join(translated)
    whole = _translate(_patterns(), message)
    return whole if whole is not None else _joined(message)


# How the address check wrote its plural before it spelled it right (issues stored then).
MISSPELLED, SPELLED = "the source's addresss ", "the source's addresses "
# Where a check's refusal of a write puts each issue: the PATCH's field, or the bulk write's
# file, key and language (``loko.translations``).
PLACES = (
    lambda issue: f"updates.{issue['language']}.value",
    lambda issue: f"{issue['fileName']} {issue['key']} ({issue['language']})",
)


def refused_from_issues(message: str, issues) -> str | None:
    """A check's refusal of a write from its issues (the error's ``details.issues``): each
    issue's place, check and message as the service joined them, the message translated.
    None when ``message`` is not those issues so joined."""
    if not isinstance(issues, list) or not issues:
        return None
    for place in PLACES:
        try:
            parts = [(place(issue), issue["check"], issue["message"]) for issue in issues]
        except (KeyError, TypeError):
            return None
        if " ".join(f"{where}: {check}: {text}" for where, check, text in parts) == message:
            return " ".join(f"{where}: {check}: {issue_text(text)}" for where, check, text in parts)
    return None


# ``: <check>: `` between an issue's place and its message, in a check's refusal of a write
# (a check's code: lowercase words joined with hyphens).
REFUSAL_PARTS = re.compile(r": ([a-z]+(?:-[a-z]+)*): ")


def refused_text(message: str) -> str | None:
    """A check's refusal of a write (``loko.translations.writing.Refused``) known by its text
    alone (a failed job's error): for each issue, where it is (``updates.de.value``, or a
    file, key and language), the check's code and its message, joined with spaces. Each
    message translated, the places and codes as they are; None when ``message`` is not such
    a refusal (each part must be a check's message). A key holding ". " can be split at the
    wrong place: :func:`refused_from_issues` reads the issues themselves where they are
    given."""
    parts = REFUSAL_PARTS.split(message)
    if len(parts) < 3:
        return None
    places, codes, texts = [parts[0]], parts[1::2], []
    for index, part in enumerate(parts[2::2]):
        if index < len(codes) - 1:
            text, separator, place = part.rpartition(". ")
            if not separator:
                return None
            part = text + "."
            places.append(place)
        text = _found_text(part)
        if text is None:
            return None
        texts.append(text)
    return " ".join(
        f"{place}: {code}: {text}" for place, code, text in zip(places, codes, texts, strict=True)
    )


def script_table() -> dict:
    """This table in the page's language, for the pages' scripts (which show a check's
    refusal of a save as the API answers it): each sentence and clause with its translation
    (a plural one as its form per CLDR category, which ``Intl.PluralRules`` picks), in the
    order :func:`issue_text` tries them, the words and runs, and the joins."""
    from flask_babel import get_locale, get_translations

    from loko.formats.plurals import first_numbers

    translations = get_translations()
    samples = first_numbers(str(get_locale()))

    def translated(key):
        if isinstance(key, tuple):
            return {category: translations.ungettext(*key, number) for category, number in samples.items()}
        return translations.ugettext(key)

    return {
        "sentences": [[msgid, translated(key)] for msgid, key in _by_length(ISSUE_TEXTS)],
        "clauses": [[msgid, translated(key)] for msgid, key in _by_length(CLAUSES)],
        "phrases": {phrase: translations.ugettext(phrase) for phrase in sorted(_phrases())},
        "runs": {name: translated((form._args[0], form._args[1])) for name, form in RUNS.items()},
        "then": translations.ugettext(THEN._args[0]),
        "next": translations.ugettext(NEXT_CLAUSE._args[0]),
        "last": translations.ugettext(LAST_CLAUSE._args[0]),
    }
