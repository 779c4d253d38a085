"""Plural values: stored as one ICU plural message, ``{count, plural, one {# file} other {#
files}}``, whose forms are keyed by CLDR plural category. Formats with plural forms of their
own (i18next suffixes, PO ``msgstr[n]``, Android ``<plurals>``, ``.stringsdict``, Rails
YAML) convert with ``split`` and ``join``; ``categories`` and ``gettext_categories`` say
which forms a language has, and ``plural_forms`` the gettext ``Plural-Forms`` header.

``join`` and ``split`` are inverse: ``split(join(forms)) == forms`` for any texts. A form's
text is kept as the format shows it (``%d``, ``{{count}}``, ``#`` stay as written); only ICU's
quoting is added where a text needs it: an apostrophe before another apostrophe, before
``{ } # |`` or at the end is doubled, and an unbalanced brace is quoted (``'{'``).
"""

import gettext
import re
from dataclasses import dataclass
from functools import lru_cache

from babel import Locale, UnknownLocaleError
from babel.messages.plurals import get_plural

CATEGORY_ORDER = ("zero", "one", "two", "few", "many", "other")
DEFAULT_ARGUMENT = "count"
_SPECIAL = "{}#|"
_MESSAGE_STOP = re.compile("['{}]")


@dataclass(frozen=True)
class Plural:
    """The ICU argument name and the forms, ``{category or "=N": text}`` in message order."""

    argument: str
    forms: dict


def _locale(language: str) -> Locale | None:
    try:
        return Locale.parse(language.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return None


@lru_cache(maxsize=512)
def categories(language: str) -> tuple[str, ...]:
    """The language's CLDR plural categories in the usual order, always ending in ``other``
    (English's when CLDR does not know the language)."""
    locale = _locale(language)
    tags = set(locale.plural_form.tags) if locale is not None else {"one"}
    return tuple(category for category in CATEGORY_ORDER if category in tags or category == "other")


@lru_cache(maxsize=512)
def ordinal_categories(language: str) -> tuple[str, ...]:
    """The language's CLDR ordinal categories (``selectordinal``), always ending in ``other``
    (English's when CLDR does not know the language)."""
    locale = _locale(language)
    tags = set(locale.ordinal_form.tags) if locale is not None else {"one", "two", "few"}
    return tuple(category for category in CATEGORY_ORDER if category in tags or category == "other")


def knows(language: str) -> bool:
    """Whether CLDR has the language's plural rules (else English's stand in)."""
    return _locale(language) is not None


# Numbers tried for examples: whole numbers first, then large ones (French ``many`` holds
# 1,000,000), then fractions (Lithuanian ``many`` holds only those).
_SAMPLES = (*range(0, 1001), 10_000, 100_000, 1_000_000, "0.5", "1.5", "2.5", "0.1", "1.1")
EXAMPLES_SHOWN = 4


@lru_cache(maxsize=512)
def examples(language: str, ordinal: bool = False) -> dict[str, str]:
    """Example numbers of each plural category of the language, as a translator reads them:
    ``{"one": "1, 21, 31, 41, …", "other": "0, 2, 3, 4, …"}`` (cardinal, or ordinal)."""
    from decimal import Decimal

    locale = _locale(language) or Locale.parse("en")
    rule = locale.ordinal_form if ordinal else locale.plural_form
    wanted = ordinal_categories(language) if ordinal else categories(language)
    found: dict[str, list[str]] = {category: [] for category in wanted}
    for sample in _SAMPLES:
        number = Decimal(sample) if isinstance(sample, str) else sample
        category = rule(number)
        shown = found.get(category)
        if shown is not None and len(shown) <= EXAMPLES_SHOWN:
            shown.append(f"{number:,}" if isinstance(number, int) else sample)
    return {
        category: ", ".join(shown[:EXAMPLES_SHOWN]) + (", …" if len(shown) > EXAMPLES_SHOWN else "")
        for category, shown in found.items()
    }


@lru_cache(maxsize=512)
def first_numbers(language: str) -> dict[str, int]:
    """The first whole number of each plural category of the language (``{"one": 1,
    "other": 0}``): the number a form of each category is asked for by."""
    return {
        category: int(text.split(", ")[0].replace(",", "").split(".")[0])
        for category, text in examples(language).items()
    }


@lru_cache(maxsize=512)
def gettext_categories(language: str) -> tuple[str, ...]:
    """The CLDR category of each gettext plural index (``msgstr[0]``, ``msgstr[1]``, ...) of the
    language's ``Plural-Forms`` rule, found by evaluating both rules on sample numbers."""
    try:
        rule = get_plural(language.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        rule = get_plural("en")
    locale = _locale(language) or Locale.parse("en")
    index_of = gettext.c2py(rule.plural_expr)
    found: dict[int, str] = {}
    for number in range(0, 1200):
        found.setdefault(index_of(number), locale.plural_form(number))
        if len(found) == rule.num_plurals:
            break
    return tuple(found.get(index, "other") for index in range(rule.num_plurals))


@lru_cache(maxsize=1024)
def plural_forms(language: str) -> str:
    """The ``Plural-Forms`` header for a language (English's rule when CLDR has none)."""
    try:
        plural = get_plural(language.replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError):
        plural = get_plural("en")
    return plural.plural_forms


def _quote(text: str) -> str:
    unbalanced, depth_stack = set(), []
    for position, character in enumerate(text):
        if character == "{":
            depth_stack.append(position)
        elif character == "}":
            if depth_stack:
                depth_stack.pop()
            else:
                unbalanced.add(position)
    unbalanced.update(depth_stack)
    out, quoting = [], False
    for position, character in enumerate(text):
        if position in unbalanced or (quoting and character == "'"):
            # A quoted run: unbalanced braces, and the apostrophes right after them (as '').
            if not quoting:
                out.append("'")
                quoting = True
            out.append("''" if character == "'" else character)
            continue
        if quoting:
            out.append("'")
            quoting = False
        following = text[position + 1] if position + 1 < len(text) else ""
        if character == "'" and (not following or following in _SPECIAL + "'" or position + 1 in unbalanced):
            out.append("''")
        else:
            out.append(character)
    if quoting:
        out.append("'")
    return "".join(out)


def join(forms: dict, argument: str = DEFAULT_ARGUMENT) -> str:
    """One ICU plural message of ``forms`` (``{category: text}``), in CLDR order."""
    ordered = sorted(forms.items(), key=lambda item: _rank(item[0]))
    body = " ".join(f"{category} {{{_quote(text)}}}" for category, text in ordered)
    return f"{{{argument}, plural, {body}}}"


def _rank(category: str) -> tuple[int, str]:
    if category in CATEGORY_ORDER:
        return (1, f"{CATEGORY_ORDER.index(category)}")
    return (0, category.rjust(12, "0"))


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position].isspace():
        position += 1
    return position


def _message(text: str, position: int) -> tuple[str, int]:
    """Read a form's text from just after its ``{`` to its closing ``}``; returns the text
    with ICU quoting removed and the position after the ``}``. Plain runs are copied whole
    between the characters that matter (apostrophes and braces)."""
    out, depth = [], 0
    while True:
        match = _MESSAGE_STOP.search(text, position)
        if match is None:
            return "", -1
        stop = match.start()
        if stop > position:
            out.append(text[position:stop])
        character = text[stop]
        position = stop + 1
        if character == "'":
            following = text[position : position + 1]
            if following == "'":
                out.append("'")
                position += 1
                continue
            if following and following in _SPECIAL:
                end = position
                while True:
                    end = text.find("'", end)
                    if end < 0:
                        return "", -1
                    if text[end + 1 : end + 2] == "'":
                        end += 2
                        continue
                    break
                out.append(text[position:end].replace("''", "'"))
                position = end + 1
                continue
        elif character == "{":
            depth += 1
        elif depth == 0:
            return "".join(out), position
        else:
            depth -= 1
        out.append(character)


def split(value: str | None) -> Plural | None:
    """The plural in ``value`` when the whole value is one ICU plural message, else None."""
    if not value or value[0] != "{" or value[-1] != "}" or "plural" not in value:
        return None
    comma = value.find(",")
    if comma < 0:
        return None
    argument = value[1:comma].strip()
    if not argument or not all(c.isalnum() or c == "_" for c in argument):
        return None
    position = _skip_space(value, comma + 1)
    if not value.startswith("plural", position):
        return None
    position = _skip_space(value, position + len("plural"))
    if value[position : position + 1] != ",":
        return None
    forms: dict[str, str] = {}
    position = _skip_space(value, position + 1)
    while position < len(value) and value[position] != "}":
        brace = value.find("{", position)
        if brace < 0:
            return None
        selector = value[position:brace].strip()
        if not (selector in CATEGORY_ORDER or (selector.startswith("=") and selector[1:].isdigit())):
            return None
        text, position = _message(value, brace + 1)
        if position < 0 or selector in forms:
            return None
        forms[selector] = text
        position = _skip_space(value, position)
    if position != len(value) - 1 or not forms:
        return None
    return Plural(argument, forms)
