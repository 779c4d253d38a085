"""Flat YAML: one mapping of ``key: text``.

Reading goes through PyYAML's safe parser (libyaml's when installed), building the mapping
from its events rather than constructing Python objects, so that every key keeps its line
and nothing is evaluated:

- every scalar is read as the text it spells: unquoted ``yes``, ``42`` or ``2024-01-01`` are
  the texts "yes", "42" and "2024-01-01", never a boolean, a number or a date (in a
  translation file they are words); an unquoted ``~``, ``null`` or nothing is no value;
- aliases (``*name``), merge keys (``<<``), lists, keys that are not text and tags other than
  ``!!str`` are refused, as is a second document, nesting deeper than ``MAX_DEPTH``, and a
  mapping as a value (nested keys need the yaml-nested format), each naming its line;
- of duplicate keys the last one wins.

Writing: keys sorted, block style, two spaces a level, UTF-8 characters as they are, no
line folding. Text is plain unless YAML 1.1 (PyYAML, Ruby's Psych) would read it as
something else or it holds what a plain scalar cannot (``'yes'``, ``'42'``, ``'# note'``,
``' lead'``); multi-line text is a literal block (``|``, ``|-``) when one holds it exactly;
other text is single-quoted, or double-quoted with escapes when it has a tab, a control
character, a line break a block cannot keep or U+FEFF. Keys without a value are left out.
Comments are not kept.
"""

import re

import yaml

from loko.formats import Entry, FormatError, Target, json_flat, json_nested

NAME = "yaml"
LABEL = "YAML (flat)"
EXTENSION = ".yml"
MEDIA_TYPE = "application/yaml"
KEEPS = frozenset()

# Mapping levels: the keys' levels plus the language key of a nested (Rails) file.
MAX_DEPTH = json_nested.MAX_DEPTH + 1

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_TEXT_TAGS = frozenset({None, "!", "tag:yaml.org,2002:str"})
_MAPPING_TAGS = frozenset({None, "tag:yaml.org,2002:map"})
# What YAML 1.1 allows in a stream, by the complement; surrogates come only from escapes.
_NOT_PRINTABLE = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


class Mapping(dict):
    """A YAML mapping as text keys and values (text, None or Mapping), with the line of each
    key in ``lines``."""

    def __init__(self):
        super().__init__()
        self.lines: dict[str, int] = {}


def _check_printable(text: str) -> None:
    bad = _NOT_PRINTABLE.search(text)
    if bad is not None:
        line = text.count("\n", 0, bad.start()) + 1
        raise FormatError(f"the character U+{ord(bad.group()):04X} is not allowed in YAML", line)


def _compose(text: str) -> Mapping | str | None:
    root: Mapping | str | None = None
    stack: list[list] = []  # [mapping, pending key or None, the key's line]
    documents = 0

    def place(value, line: int) -> None:
        nonlocal root
        if not stack:
            root = value
            return
        frame = stack[-1]
        if frame[1] is None:
            raise FormatError("a key must be text", line)
        frame[0][frame[1]] = value
        frame[0].lines[frame[1]] = frame[2]
        frame[1] = None

    for event in yaml.parse(text, Loader=_LOADER):
        line = event.start_mark.line + 1
        if isinstance(event, yaml.DocumentStartEvent):
            documents += 1
            if documents > 1:
                raise FormatError("the file holds more than one YAML document", line)
        elif isinstance(event, yaml.AliasEvent):
            raise FormatError("aliases (*name) are not supported", line)
        elif isinstance(event, yaml.SequenceStartEvent):
            raise FormatError("lists are not supported", line)
        elif isinstance(event, yaml.MappingStartEvent):
            if event.tag not in _MAPPING_TAGS:
                raise FormatError(f"the tag {event.tag} is not supported", line)
            if len(stack) >= MAX_DEPTH:
                raise FormatError(f"mappings nest more than {MAX_DEPTH} levels deep", line)
            mapping = Mapping()
            place(mapping, line)
            stack.append([mapping, None, line])
        elif isinstance(event, yaml.MappingEndEvent):
            stack.pop()
        elif isinstance(event, yaml.ScalarEvent):
            if event.tag not in _TEXT_TAGS:
                raise FormatError(f"the tag {event.tag} is not supported", line)
            if _SURROGATE.search(event.value):
                raise FormatError("an escape gives half of a surrogate pair", line)
            plain = event.implicit[0]
            if stack and stack[-1][1] is None:
                if plain and event.value == "<<":
                    raise FormatError("merge keys (<<) are not supported", line)
                stack[-1][1], stack[-1][2] = event.value, line
            else:
                place(None if plain and event.value in _NULLS else event.value, line)
    return root


def load(data: bytes) -> Mapping | str | None:
    """The document in ``data``: a Mapping, a text, or None when the file is empty."""
    text = json_flat.decode(data)
    _check_printable(text)
    try:
        return _compose(text)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or error.context or "the file does not parse"
        raise FormatError(f"not valid YAML: {problem}", mark.line + 1 if mark else None) from None
    except yaml.YAMLError as error:
        raise FormatError(f"not valid YAML: {error}") from None


def require_mapping(document, line: int = 1) -> Mapping:
    if document is None:
        return Mapping()
    if not isinstance(document, dict):
        raise FormatError("the file must hold a mapping of keys", line)
    return document


def read(data: bytes, language: str) -> list[Entry]:
    document = require_mapping(load(data))
    entries = []
    for key, value in document.items():
        if isinstance(value, dict):
            raise FormatError(
                f"the value of {key!r} is a mapping, not text (nested keys need the yaml-nested format)",
                document.lines[key],
            )
        entries.append(Entry(key, value))
    return entries


# Characters written as they are; anything else (tab, line breaks, controls, U+FEFF) needs
# the escapes of a double-quoted scalar.
_RAW = r"\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff"
_NOT_RAW = re.compile(f"[^{_RAW}]")
_NOT_LITERAL = re.compile(f"[^\n{_RAW}]")
_DOUBLE_QUOTED = re.compile(f'[\\\\"]|[^{_RAW}]')
_ESCAPES = {
    "\\": "\\\\",
    '"': '\\"',
    "\x00": "\\0",
    "\t": "\\t",
    "\n": "\\n",
    "\r": "\\r",
    "\x85": "\\N",
    "\u2028": "\\L",
    "\u2029": "\\P",
}
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
_RESOLVER = yaml.resolver.Resolver()
_STR_TAG = "tag:yaml.org,2002:str"
# YAML's limit on the length of an implicit key.
MAX_KEY_WIDTH = 1024


def _plain(text: str) -> bool:
    """Whether ``text`` reads back as itself, and as text, unquoted: YAML 1.1 (PyYAML, Psych)
    would take ``yes``, ``42`` or ``~`` for something else."""
    return (
        text != ""
        and text[0] not in _INDICATORS
        and text[0] != " "
        and text[-1] not in " :"
        and not text.startswith("...")
        and ": " not in text
        and " #" not in text
        and _NOT_RAW.search(text) is None
        and _RESOLVER.resolve(yaml.ScalarNode, text, (True, False)) == _STR_TAG
    )


def _literal(text: str) -> bool:
    """Whether a literal block (``|`` or ``|-``) holds ``text`` exactly: lines that neither
    begin nor end with a space, at most one final line feed, no characters needing escapes."""
    if text.endswith("\n\n") or _NOT_LITERAL.search(text) is not None:
        return False
    lines = text.removesuffix("\n").split("\n")
    return any(lines) and not any(line[:1] == " " or line[-1:] == " " for line in lines)


def _escape(match: re.Match) -> str:
    character = match.group()
    escaped = _ESCAPES.get(character)
    if escaped is not None:
        return escaped
    code = ord(character)
    if 0xD800 <= code <= 0xDFFF:
        return character  # cannot be written at all; encoding the file says so
    if code < 0x100:
        return f"\\x{code:02X}"
    return f"\\u{code:04X}" if code < 0x10000 else f"\\U{code:08X}"


def _scalar(text: str, indent: str, key: bool = False) -> str:
    if _plain(text):
        return text
    if not key and "\n" in text and _literal(text):
        body = text.removesuffix("\n")
        lines = "".join(f"\n{indent}{line}" if line else "\n" for line in body.split("\n"))
        return ("|" if body != text else "|-") + lines
    if _NOT_RAW.search(text) is None:
        return "'" + text.replace("'", "''") + "'"
    return '"' + _DOUBLE_QUOTED.sub(_escape, text) + '"'


def _emit(mapping: dict, depth: int, out: list[str]) -> None:
    indent = "  " * depth
    for name, value in mapping.items():
        key = _scalar(name, indent, key=True)
        if len(key) > MAX_KEY_WIDTH:
            raise ValueError(f"the key {name[:40]!r}... is too long for a YAML key")
        if not isinstance(value, dict):
            out.append(f"{indent}{key}: {_scalar(value, indent + '  ')}\n")
        elif value:
            out.append(f"{indent}{key}:\n")
            _emit(value, depth + 1, out)
        else:
            out.append(f"{indent}{key}: {{}}\n")


def dump(document: dict) -> bytes:
    """``document`` (text keys; text or mapping values) as block-style YAML in its own key
    order, two spaces a level, never folding a line. Written directly rather than by PyYAML's
    dumper, which is many times slower than every other format's writer."""
    if not document:
        return b"{}\n"
    out: list[str] = []
    _emit(document, 0, out)
    return "".join(out).encode("utf-8")


def write(entries: list[Entry], target: Target) -> bytes:
    values = {entry.key: entry.value for entry in entries if entry.value is not None}
    return dump(dict(sorted(values.items())))
