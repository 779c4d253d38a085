"""XLIFF 1.2 (``.xlf``): one ``<file>`` of ``<trans-unit>`` elements, each a key with its source
text, its translation and a note.

Reading returns the texts of ``language``: the ``<target>`` texts, or the ``<source>`` texts
when ``language`` is the file's ``source-language`` or the file has no ``target-language`` (a
source file). A unit without a ``<target>`` is a key without a translation (value None). The
key is the unit's ``resname``, or its ``id`` when it has none; when both are present and
differ, the ``id`` is kept in ``meta["xliff"]["id"]`` and written back with the key as ``resname``.
Every ``<file>`` of the document is read, units inside ``<group>`` elements too; a key that
appears twice is refused. The ``<note>`` elements of a unit, joined by line breaks, are
``Entry.comment``. Inline elements are read as the text they stand for: ``<g>``, ``<mrk>``,
``<ph>``, ``<bpt>``, ``<ept>``, ``<it>`` and ``<sub>`` as their content, ``<x/>``, ``<bx/>`` and
``<ex/>`` as their ``equiv-text``; Loko writes plain text only.

XLIFF 1.2 has no plural model in plain use, so a plural value is written as its ICU plural
message text, which tools that understand ICU in XLIFF (and Loko) read back unchanged.

The writer is deterministic: UTF-8 with an XML declaration, 2-space indentation, one
``<file original source-language target-language datatype="plaintext">``, the units in the
order given, each ``<source>`` (the target's source value for the key, or the key itself
when there is none), ``<target>`` (left out for None) and ``<note>`` (for a comment), and a
final newline. For the source language itself (or without a source language) it writes a
source file: no ``target-language``, the values as ``<source>``, and no unit for None.
Characters that XML 1.0 cannot hold (control characters other than tab and line breaks) are
left out; a carriage return is written as ``&#13;`` so that it survives.

Parsing refuses document type declarations (so no entity expansion and no external
entities) and elements nested more than 64 deep; every problem is a ``FormatError`` naming
the line.
"""

import re
from xml.etree.ElementTree import Element, ParseError, TreeBuilder

from defusedxml import DefusedXmlException, DTDForbidden, EntitiesForbidden
from defusedxml.ElementTree import DefusedXMLParser

from loko.formats import Entry, FormatError, Target

NAME = "xliff"
LABEL = "XLIFF 1.2"
EXTENSION = ".xlf"
MEDIA_TYPE = "application/xliff+xml"
KEEPS = frozenset({"comments"})

NAMESPACE = "urn:oasis:names:tc:xliff:document:1.2"
XLIFF2_NAMESPACE = "urn:oasis:names:tc:xliff:document:2.0"
MAX_DEPTH = 64
_INDENT = "  "
# Characters XML 1.0 cannot hold: C0 controls other than tab and line feed (carriage return
# is escaped apart), surrogates, U+FFFE and U+FFFF.
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_POSITION = re.compile(r":\s*line \d+, column \d+$")


class _Builder:
    """An ElementTree builder that remembers the line of each element and limits nesting."""

    def __init__(self):
        self._builder = TreeBuilder()
        self._depth = 0
        self.lines: dict[int, int] = {}
        self.expat = None

    def start(self, tag: str, attributes: dict) -> Element:
        self._depth += 1
        line = self.expat.CurrentLineNumber
        if self._depth > MAX_DEPTH:
            raise FormatError(f"elements nested more than {MAX_DEPTH} deep", line)
        element = self._builder.start(tag, attributes)
        self.lines[id(element)] = line
        return element

    def end(self, tag: str) -> Element:
        self._depth -= 1
        return self._builder.end(tag)

    def data(self, text: str) -> None:
        self._builder.data(text)

    def close(self) -> Element:
        return self._builder.close()


def parse(data: bytes) -> tuple[Element, dict[int, int]]:
    """The root element of an XML document without a document type declaration, and the line
    of each element (by ``id``); FormatError naming the line when the bytes do not parse."""
    builder = _Builder()
    parser = DefusedXMLParser(target=builder, forbid_dtd=True)
    builder.expat = parser.parser
    try:
        parser.feed(data)
        root = parser.close()
    except ParseError as error:
        raise FormatError(
            f"not well-formed XML: {_POSITION.sub('', str(error))}", error.position[0]
        ) from None
    except DefusedXmlException as error:
        raise FormatError(_refusal(error), parser.parser.CurrentLineNumber) from None
    except FormatError:
        raise
    except (LookupError, ValueError) as error:
        # expat hands encodings it does not know to Python's codecs, which refuse this way.
        raise FormatError(f"unsupported encoding: {error}", parser.parser.CurrentLineNumber) from None
    return root, builder.lines


def _refusal(error: DefusedXmlException) -> str:
    if isinstance(error, DTDForbidden):
        return "document type declarations are not allowed"
    if isinstance(error, EntitiesForbidden):
        return "entity declarations are not allowed"
    return "external references are not allowed"


def escape_text(text: str) -> str:
    if _TEXT_SPECIAL.search(text) is None:
        return text  # most texts: nothing to drop or escape
    text = NOT_XML.sub("", text)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")


_TEXT_SPECIAL = re.compile("[&<>\r]|" + NOT_XML.pattern)


def escape_attribute(text: str) -> str:
    return escape_text(text).replace('"', "&quot;").replace("\n", "&#10;").replace("\t", "&#9;")


def attributes(pairs: list[tuple[str, str]]) -> str:
    return "".join(f' {name}="{escape_attribute(value)}"' for name, value in pairs)


def same_language(one: str | None, other: str | None) -> bool:
    if one is None or other is None:
        return False
    return one.replace("_", "-").lower() == other.replace("_", "-").lower()


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _text(element: Element) -> str:
    parts = [element.text or ""]
    for child in element:
        name = _local(child.tag)
        if name in ("x", "bx", "ex"):
            parts.append(child.get("equiv-text", ""))
        else:
            parts.append(_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def read(data: bytes, language: str) -> list[Entry]:
    root, lines = parse(data)
    namespace = root.tag[1:].split("}", 1)[0] if root.tag.startswith("{") else ""
    if namespace == XLIFF2_NAMESPACE:
        raise FormatError("this is XLIFF 2.0; read it with the xliff2 format", lines[id(root)])
    if _local(root.tag) != "xliff" or namespace not in (NAMESPACE, ""):
        raise FormatError(f"the root element is not an XLIFF 1.2 <xliff> but {root.tag!r}", lines[id(root)])

    def named(name: str) -> str:
        return f"{{{namespace}}}{name}" if namespace else name

    entries, seen = [], {}
    for file in root.findall(named("file")):
        from_source = file.get("target-language") is None or same_language(
            language, file.get("source-language")
        )
        for unit in file.iter(named("trans-unit")):
            line = lines[id(unit)]
            unit_id, resname = unit.get("id"), unit.get("resname")
            if unit_id is None:
                raise FormatError("a <trans-unit> without an id", line)
            key = unit_id if resname is None else resname
            if key in seen:
                raise FormatError(f"the key {key!r} appears twice (first on line {seen[key]})", line)
            seen[key] = line
            text = unit.find(named("source" if from_source else "target"))
            notes = [_text(note) for note in unit.findall(named("note"))]
            entries.append(
                Entry(
                    key=key,
                    value=None if text is None else _text(text),
                    comment="\n".join(notes) if notes else None,
                    meta={"xliff": {"id": unit_id}} if resname is not None and resname != unit_id else None,
                    max_length=_max_width(unit),
                )
            )
    return entries


# A key's maximum length is at most a value's (8,192 characters).
MAX_WIDTH = 8192


def _max_width(unit) -> int | None:
    """A unit's ``maxwidth`` in characters (the only size unit a key's maximum length means)."""
    width = unit.get("maxwidth", "")
    if unit.get("size-unit") != "char" or not width.isdecimal() or not 0 < int(width) <= MAX_WIDTH:
        return None
    return int(width)


def write(entries: list[Entry], target: Target) -> bytes:
    source_language = target.source_language or target.language
    bilingual = not same_language(source_language, target.language)
    file_attributes = [("original", target.file_name or "messages"), ("source-language", source_language)]
    if bilingual:
        file_attributes.append(("target-language", target.language))
    file_attributes.append(("datatype", "plaintext"))
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<xliff xmlns="{NAMESPACE}" version="1.2">',
        f"{_INDENT}<file{attributes(file_attributes)}>",
        f"{_INDENT * 2}<body>",
    ]
    unit_indent, inner_indent = _INDENT * 3, _INDENT * 4
    for entry in entries:
        if bilingual:
            source = target.source_values.get(entry.key)
            source = entry.key if source is None else source
        elif entry.value is None:
            continue
        else:
            source = entry.value
        unit_id = ((entry.meta or {}).get("xliff") or {}).get("id")
        unit_attributes = (
            [("id", entry.key)] if unit_id is None else [("id", unit_id), ("resname", entry.key)]
        )
        if entry.max_length is not None:
            unit_attributes += [("maxwidth", str(entry.max_length)), ("size-unit", "char")]
        lines.append(f"{unit_indent}<trans-unit{attributes(unit_attributes)}>")
        lines.append(f"{inner_indent}<source>{escape_text(source)}</source>")
        if bilingual and entry.value is not None:
            lines.append(f"{inner_indent}<target>{escape_text(entry.value)}</target>")
        if entry.comment is not None:
            lines.append(f"{inner_indent}<note>{escape_text(entry.comment)}</note>")
        lines.append(f"{unit_indent}</trans-unit>")
    lines += [f"{_INDENT * 2}</body>", f"{_INDENT}</file>", "</xliff>", ""]
    return "\n".join(lines).encode("utf-8")
