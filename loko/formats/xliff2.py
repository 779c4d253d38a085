"""XLIFF 2.0 (``.xlf``): ``<xliff srcLang trgLang>`` holding one ``<file>`` of ``<unit>``
elements, each a key with its notes and one ``<segment>`` of ``<source>`` and ``<target>``.

Reading returns the texts of ``language``: the ``<target>`` texts, or the ``<source>`` texts
when ``language`` is the document's ``srcLang`` or the document has no ``trgLang``. A unit
without a ``<target>`` is a key without a translation (value None). A unit's segments and
ignorables are joined into one text. The key is the unit's ``name``, or its ``id`` when it
has none; a unit ``id`` other than the one Loko would write for the key is kept in
``meta["xliff2"]["id"]`` and written back. Every ``<file>`` is read, units in ``<group>``
elements too; a key that appears twice is refused. The unit's ``<note>`` elements, joined by
line breaks, are ``Entry.comment``. Inline elements are read as the text they stand for:
``<cp hex>`` as its character, ``<pc>`` and ``<mrk>`` as their content, ``<ph/>``,
``<sc/>`` and ``<ec/>`` as their ``equiv`` text; Loko writes plain text only.

XLIFF 2.0 core has no plural model, so a plural value is written as its ICU plural message
text, which Loko reads back unchanged.

The writer is deterministic: UTF-8 with an XML declaration, 2-space indentation, one
``<file id="f1" original>``, the units in the order given, each ``<notes>`` (for a comment)
and one ``<segment>`` with ``<source>`` (the target's source value for the key, or the key
itself when there is none) and ``<target>`` (left out for None), and a final newline. A
unit's ``id`` is the key when the key is an XML name token made of ASCII letters, digits and
``. _ - :``; any other key gets a stable ``id`` made from its digest, and the key goes in
``name``. For the source language itself (or without a source language) it writes a source
document: no ``trgLang``, the values as ``<source>``, and no unit for None. Characters that
XML 1.0 cannot hold are written as ``<cp hex>`` (in a note they are left out). A document
without units holds one empty ``<group id="empty"/>``, since a ``<file>`` must hold something.

Parsing refuses document type declarations and deep nesting as the XLIFF 1.2 format does;
every problem is a ``FormatError`` naming the line.
"""

import hashlib
import re
from xml.etree.ElementTree import Element

from loko.formats import Entry, FormatError, Target
from loko.formats.xliff12 import NOT_XML, attributes, escape_attribute, escape_text, parse, same_language

NAME = "xliff2"
LABEL = "XLIFF 2.0"
EXTENSION = ".xlf"
MEDIA_TYPE = "application/xliff+xml"
KEEPS = frozenset({"comments"})

NAMESPACE = "urn:oasis:names:tc:xliff:document:2.0"
XLIFF12_NAMESPACE = "urn:oasis:names:tc:xliff:document:1.2"
_INDENT = "  "
_NAME_TOKEN = re.compile(r"[A-Za-z0-9._:-]+")


def _q(name: str) -> str:
    return f"{{{NAMESPACE}}}{name}"


def unit_id(key: str) -> str:
    """The ``id`` Loko writes for ``key``: the key itself when it is a plain name token."""
    if _NAME_TOKEN.fullmatch(key):
        return key
    return "k" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _text(element: Element, lines: dict[int, int]) -> str:
    parts = [element.text or ""]
    for child in element:
        name = child.tag.rsplit("}", 1)[-1]
        if name == "cp":
            parts.append(_code_point(child, lines))
        elif name in ("pc", "mrk"):
            parts.append(_text(child, lines))
        else:
            parts.append(child.get("equiv", ""))
        parts.append(child.tail or "")
    return "".join(parts)


def _code_point(element: Element, lines: dict[int, int]) -> str:
    hex_value = element.get("hex", "")
    if not re.fullmatch(r"[0-9A-Fa-f]{1,6}", hex_value) or int(hex_value, 16) > 0x10FFFF:
        raise FormatError(f"<cp> with an invalid hex {hex_value!r}", lines[id(element)])
    return chr(int(hex_value, 16))


def _unit_text(unit: Element, which: str, lines: dict[int, int]) -> str | None:
    parts, translated = [], which == "source"
    for part in unit:
        if part.tag == _q("segment"):
            text = part.find(_q(which))
            translated = translated or text is not None
        elif part.tag == _q("ignorable"):
            # An ignorable without a target stands for its source in the translation too.
            text = part.find(_q(which))
            text = part.find(_q("source")) if text is None else text
        else:
            continue
        parts.append("" if text is None else _text(text, lines))
    return "".join(parts) if translated else None


def read(data: bytes, language: str) -> list[Entry]:
    root, lines = parse(data)
    if root.tag == f"{{{XLIFF12_NAMESPACE}}}xliff":
        raise FormatError("this is XLIFF 1.2; read it with the xliff format", lines[id(root)])
    if root.tag != _q("xliff"):
        raise FormatError(f"the root element is not an XLIFF 2.0 <xliff> but {root.tag!r}", lines[id(root)])
    from_source = root.get("trgLang") is None or same_language(language, root.get("srcLang"))
    entries, seen = [], {}
    for file in root.findall(_q("file")):
        for unit in file.iter(_q("unit")):
            line = lines[id(unit)]
            identifier, name = unit.get("id"), unit.get("name")
            if identifier is None:
                raise FormatError("a <unit> without an id", line)
            key = identifier if name is None else name
            if key in seen:
                raise FormatError(f"the key {key!r} appears twice (first on line {seen[key]})", line)
            seen[key] = line
            notes = [_text(note, lines) for note in unit.findall(f"{_q('notes')}/{_q('note')}")]
            entries.append(
                Entry(
                    key=key,
                    value=_unit_text(unit, "source" if from_source else "target", lines),
                    comment="\n".join(notes) if notes else None,
                    meta={"xliff2": {"id": identifier}} if identifier != unit_id(key) else None,
                )
            )
    return entries


def _content(text: str) -> str:
    """Element content for ``text``, with the characters XML cannot hold as ``<cp hex>``."""
    if NOT_XML.search(text) is None:
        return escape_text(text)
    parts, last = [], 0
    for match in NOT_XML.finditer(text):
        parts.append(escape_text(text[last : match.start()]))
        parts.append(f'<cp hex="{ord(match.group()):04X}"/>')
        last = match.end()
    parts.append(escape_text(text[last:]))
    return "".join(parts)


def write(entries: list[Entry], target: Target) -> bytes:
    source_language = target.source_language or target.language
    bilingual = not same_language(source_language, target.language)
    root_attributes = [("xmlns", NAMESPACE), ("version", "2.0"), ("srcLang", source_language)]
    if bilingual:
        root_attributes.append(("trgLang", target.language))
    file_attributes = [("id", "f1")]
    if target.file_name:
        file_attributes.append(("original", target.file_name))
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f"<xliff{attributes(root_attributes)}>",
        f"{_INDENT}<file{attributes(file_attributes)}>",
    ]
    used: set[str] = set()
    i2, i3, i4 = _INDENT * 2, _INDENT * 3, _INDENT * 4
    for entry in entries:
        if bilingual:
            source = target.source_values.get(entry.key)
            source = entry.key if source is None else source
        elif entry.value is None:
            continue
        else:
            source = entry.value
        identifier = ((entry.meta or {}).get("xliff2") or {}).get("id")
        if identifier is None or not _NAME_TOKEN.fullmatch(identifier):
            identifier = unit_id(entry.key)
        while identifier in used:
            identifier += "_"
        used.add(identifier)
        # One string per unit. An id is a name token, which needs no escaping.
        name = "" if identifier == entry.key else f' name="{escape_attribute(entry.key)}"'
        notes = ""
        if entry.comment is not None:
            notes = f"\n{i3}<notes>\n{i4}<note>{escape_text(entry.comment)}</note>\n{i3}</notes>"
        translation = ""
        if bilingual and entry.value is not None:
            translation = f"\n{i4}<target>{_content(entry.value)}</target>"
        lines.append(
            f'{i2}<unit id="{identifier}"{name}>{notes}\n{i3}<segment>\n'
            f"{i4}<source>{_content(source)}</source>{translation}\n{i3}</segment>\n{i2}</unit>"
        )
    if not used:
        # A <file> must hold a unit or a group.
        lines.append(f'{i2}<group id="empty"/>')
    lines += [f"{_INDENT}</file>", "</xliff>", ""]
    return "\n".join(lines).encode("utf-8")
