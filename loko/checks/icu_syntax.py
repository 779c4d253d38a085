"""ICU MessageFormat: the value parses, its plurals have the forms its language needs, and its
selects offer the source's choices.

Only messages that look like ICU are read (the value or the source has an argument with a
type: ``{x, plural|select|selectordinal|number|date|time ...}``). Then:

- the value must parse (quoting with ``'`` is understood: ``'{'`` is a literal brace);
- every ``plural`` and ``selectordinal`` needs ``other`` and each CLDR category of the value's
  language (cardinal or ordinal); a category whose whole integer range is covered by exact
  selectors counts as present (``=1`` covers English ``one``), and a category that holds no
  whole number below 1,000 is not required (French, Spanish, Italian and Portuguese ``many``
  holds 1,000,000 and its multiples; Lithuanian ``many`` holds fractions only); a category
  the language does not have (``few`` in English) is flagged too, as no number ever picks
  it, unless CLDR does not know the language;
- every ``select`` needs ``other``, and when the source has a select on the same argument,
  the value's offers the same keys;
- a plural, selectordinal or select of the source is present in the value.

No fix: which words a missing form needs is a translator's choice.
"""

from functools import lru_cache

from babel import Locale, UnknownLocaleError

from loko.checks import Issue, Signal, Target
from loko.checks.icu import parse as parse_icu
from loko.checks.text import looks_like_icu, plural_word
from loko.formats.plurals import CATEGORY_ORDER, categories, knows, ordinal_categories

CODE = "icu-syntax"
TITLE = "ICU message syntax or plural forms"
# Finds nothing in a value unless it or its source shows this (``checks.Signal``).
SIGNAL = Signal(characters="{")

_CHOICE_TYPES = ("plural", "selectordinal", "select")


def _locale(language: str) -> Locale | None:
    try:
        return Locale.parse(language.replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError):
        return None


@lru_cache(maxsize=2048)
def _integers(language: str, kind: str, category: str) -> frozenset[int] | None:
    """The integers 0-999 in ``category`` of the language (empty when none is: the category
    is then optional, as French ``many`` holding 1,000,000), or None when more than five are
    (then no set of exact selectors stands for the category)."""
    locale = _locale(language) or Locale.parse("en")
    rule = locale.plural_form if kind == "plural" else locale.ordinal_form
    found = {number for number in range(1000) if rule(number) == category}
    return frozenset(found) if len(found) <= 5 else None


def _choices(nodes: list, out: list) -> None:
    """Every plural, selectordinal and select node, depth first."""
    for node in nodes:
        if isinstance(node, str) or node.get("type") not in _CHOICE_TYPES:
            continue
        out.append(node)
        for branch in node["options"].values():
            _choices(branch, out)


@lru_cache(maxsize=4096)
def _source_selects(source: str) -> tuple[dict, frozenset]:
    """The source's select keys by argument, and its (argument, type) choices."""
    tree, _error = parse_icu(source)
    if tree is None:
        return {}, frozenset()
    found: list = []
    _choices(tree, found)
    selects = {node["name"]: frozenset(node["options"]) for node in found if node["type"] == "select"}
    return selects, frozenset((node["name"], node["type"]) for node in found)


def _needed(language: str, kind: str) -> tuple[str, ...]:
    return categories(language) if kind == "plural" else ordinal_categories(language)


def _extra_categories(node: dict, language: str) -> list[str]:
    """The node's category forms the language does not have (none when CLDR does not know
    the language: English's rules only stand in for it)."""
    if not knows(language):
        return []
    needed = _needed(language, node["type"])
    return [key for key in node["options"] if key in CATEGORY_ORDER and key not in needed]


def _missing_categories(node: dict, language: str) -> list[str]:
    kind = node["type"]
    needed = _needed(language, kind)
    options = node["options"]
    exact = {int(key[1:]) for key in options if key.startswith("=") and key[1:].isdigit()}
    missing = []
    for category in needed:
        if category in options:
            continue
        if category != "other":
            integers = _integers(language, kind, category)
            if integers is not None and integers <= exact:
                continue
        missing.append(category)
    return missing


def _node_issues(node: dict, language: str, source_selects: dict) -> list[str]:
    name, kind, options = node["name"], node["type"], node["options"]
    if kind in ("plural", "selectordinal"):
        messages = []
        missing = _missing_categories(node, language)
        if missing:
            messages.append(
                f"The {kind} on {{{name}}} lacks the {plural_word(len(missing), 'form')} "
                f"{', '.join(missing)} that {language} needs."
            )
        extra = _extra_categories(node, language)
        if extra:
            messages.append(
                f"The {kind} on {{{name}}} has the {plural_word(len(extra), 'form')} "
                f"{', '.join(extra)}, which {language} does not use."
            )
        return messages
    messages = []
    if "other" not in options:
        messages.append(f"The select on {{{name}}} has no other branch.")
    wanted = source_selects.get(name)
    if wanted is not None:
        missing = sorted(wanted - set(options))
        extra = sorted(set(options) - wanted)
        if missing:
            messages.append(f"The select on {{{name}}} lacks the source's {', '.join(missing)}.")
        if extra:
            messages.append(f"The select on {{{name}}} has {', '.join(extra)}, which the source has not.")
    return messages


def check(target: Target) -> list[Issue]:
    value, source = target.value, target.source
    if not value or ("{" not in value and (not source or "{" not in source)):
        return []
    if not (looks_like_icu(value) or looks_like_icu(source)):
        return []
    tree, error = parse_icu(value)
    if tree is None:
        return [Issue(CODE, f"The value is not a valid ICU message: {error}.")]
    nodes: list = []
    _choices(tree, nodes)
    source_selects, source_choices = _source_selects(source) if source else ({}, frozenset())
    messages = []
    for node in nodes:
        messages.extend(_node_issues(node, target.language, source_selects))
    present = {(node["name"], node["type"]) for node in nodes}
    for name, kind in sorted(source_choices - present):
        messages.append(f"The source's {kind} on {{{name}}} is missing from the value.")
    return [Issue(CODE, message) for message in messages]
