"""The value's placeholders are the source's: the same ones, as many times each, in any order.

Every syntax Loko's formats carry is read: printf and its iOS/Android kin (``%s``, ``%d``,
``%1$s``, ``%@``, ``%lld``, ``%.2f``), Python's ``%(name)s``, Ruby's ``%{name}`` (Rails),
braces (``{name}``, ``{0}``, ``{0:N2}``), i18next's ``{{name}}`` and ``$t(key)``, and ICU
arguments (``{count, number}``, a plural's or a select's argument). ``%%`` is an escaped
percent sign, and ``100%`` or ``100%ige`` are text (a ``%`` right after a digit starts no
placeholder).

A message that looks like ICU (``{x, plural, ...}``) is read with the ICU parser (one that
does not parse is left to the icu-syntax check), so its quoted text (``'{'``) and ``#`` are
not placeholders, and it is compared as a set: a language with more plural forms repeats a
placeholder in each. Elsewhere the comparison counts.

The fix: only when exactly one placeholder is missing and exactly one other is extra, outside
ICU (a renamed ``{nom}`` back to ``{name}``, say); else none.
"""

import re
from collections import Counter
from functools import lru_cache

from loko.checks import Issue, Signal, Target
from loko.checks.icu import parse as parse_icu
from loko.checks.text import looks_like_icu, plural_word

CODE = "placeholders"
TITLE = "Placeholders differ from the source"
# Finds nothing in a value unless it or its source shows this (``checks.Signal``).
SIGNAL = Signal(characters="%{$")

_PRINTF = (
    r"(?<![0-9])%(?:[1-9][0-9]*\$)?[-+0#']*(?:[0-9]+|\*)?(?:\.(?:[0-9]+|\*))?"
    r"(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGaAcCsSpn@]"
)
_PYTHON = r"%\([^()\s]+\)[-+ 0#]*(?:[0-9]+|\*)?(?:\.[0-9]+)?[diouxXeEfFgGcrsa]"
_I18NEXT = r"\{\{-?\s*[^{}\s,]+(?:\s*,[^{}]*)?\s*\}\}"
_NESTING = r"\$t\([^()]*\)"
_BRACE = r"\{[\w.-]+(?:[,:!][^{}]*)?\}"
# ``%%`` first so that its second ``%`` starts nothing.
# The lookahead first: a character that starts no placeholder is passed over at once.
_RUBY = r"%\{[^{}\s]+\}"
_ANY = re.compile(f"(?=[%{{$])(?:%%|{_PYTHON}|{_RUBY}|{_PRINTF}|{_I18NEXT}|{_NESTING}|{_BRACE})")
# In ICU text (braces are ICU's own, quoted ones are text): printf, Python and $t() only.
_IN_ICU_TEXT = re.compile(f"(?=[%$])(?:%%|{_PYTHON}|{_PRINTF}|{_NESTING})")
_ESCAPED_PERCENT = "%%"
_SPACES = re.compile(r"\s+")


def _normal(token: str) -> str:
    if token.startswith("{{"):
        return _SPACES.sub("", token)
    return token


def _regex_tokens(text: str, pattern: re.Pattern) -> list[str]:
    tokens = pattern.findall(text)
    if "%%" in text:
        tokens = [token for token in tokens if token != _ESCAPED_PERCENT]
    if "{{" in text:
        tokens = [_normal(token) for token in tokens]
    return tokens


def _icu_tokens(nodes: list, out: list) -> None:
    for node in nodes:
        if isinstance(node, str):
            if "%" in node or "$t(" in node:
                out.extend(_regex_tokens(node, _IN_ICU_TEXT))
            continue
        if node.get("hash"):
            continue
        out.append("{" + node["name"] + "}")
        for branch in (node.get("options") or {}).values():
            _icu_tokens(branch, out)


def read(text: str) -> tuple[tuple[str, ...] | None, bool]:
    """The placeholders of ``text`` in order (None when it looks like ICU but does not parse:
    the icu-syntax check says so), and whether it was read as ICU."""
    if "%" not in text and "{" not in text and "$t(" not in text:
        return (), False
    if "," in text and looks_like_icu(text):
        tree, _error = parse_icu(text)
        if tree is None:
            return None, True
        found: list[str] = []
        _icu_tokens(tree, found)
        return tuple(found), True
    return tuple(_regex_tokens(text, _ANY)), False


# A source is checked against each of its languages: its reading is kept.
placeholders = lru_cache(maxsize=8192)(read)

_KINDS = (
    ("python", re.compile(_PYTHON)),
    ("ruby", re.compile(_RUBY)),
    ("printf", re.compile(_PRINTF)),
    ("i18next", re.compile(_I18NEXT)),
    ("nesting", re.compile(_NESTING)),
    ("brace", re.compile(_BRACE)),
)


def spans(text: str) -> list[tuple[int, int, str]] | None:
    """Where ``read`` finds each placeholder of ``text``: (start, end, token as ``read``
    gives it), in order. None for ICU text, whose arguments stand in its structure, and for
    text ``read`` cannot read."""
    tokens, icu = read(text)
    if icu or tokens is None:
        return None
    found = []
    for match in _ANY.finditer(text):
        if match.group(0) != _ESCAPED_PERCENT:
            found.append((match.start(), match.end(), _normal(match.group(0))))
    return found


def kind(token: str) -> str:
    """A placeholder's syntax and, for printf and Python's, its conversion: ``brace``,
    ``i18next``, ``ruby``, ``nesting``, ``printf:s``, ``python:d`` ...: two placeholders of one
    kind can stand for each other."""
    for name, pattern in _KINDS:
        if pattern.fullmatch(token):
            return f"{name}:{token[-1]}" if name in ("printf", "python") else name
    return "other"


def _listing(label: str, tokens: list[str]) -> str:
    return f"{label} {plural_word(len(tokens), 'placeholder')} {', '.join(tokens)}"


def check(target: Target) -> list[Issue]:
    source, value = target.source, target.value
    if not source or not value:
        return []
    if "%" not in value and "{" not in value and "$t(" not in value:
        if "%" not in source and "{" not in source and "$t(" not in source:
            return []
        found, value_icu = (), False
    elif (
        "," not in value
        and "," not in source
        and "{{" not in value
        and _ANY.findall(value) == _ANY.findall(source)
    ):
        # Neither can be ICU, and both have the same tokens in the same order: the usual case.
        return []
    else:
        found, value_icu = read(value)
    wanted, source_icu = placeholders(source)
    if wanted is None or found is None or wanted == found:
        return []
    if sorted(wanted) == sorted(found):
        return []
    if source_icu or value_icu:
        missing = sorted(set(wanted) - set(found))
        extra = sorted(set(found) - set(wanted))
    else:
        wanted_count, found_count = Counter(wanted), Counter(found)
        missing = sorted((wanted_count - found_count).elements())
        extra = sorted((found_count - wanted_count).elements())
    if not missing and not extra:
        return []
    parts = []
    if missing:
        parts.append(_listing("Missing", missing))
    if extra:
        parts.append(_listing("extra" if missing else "Extra", extra))
    fix = None
    if len(missing) == 1 and len(extra) == 1 and not (source_icu or value_icu) and value.count(extra[0]) == 1:
        fix = value.replace(extra[0], missing[0])
    return [Issue(CODE, "; ".join(parts) + ".", fix)]
