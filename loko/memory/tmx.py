"""TMX 1.4 files: ``read(bytes) -> units`` and ``write(units, source_language) -> bytes``
over plain units (source language, target language, source, target); no I/O beyond bytes.

XML is read as the XLIFF reader reads it (defusedxml, expat): a document type declaration
is allowed (TMX files carry one), entity declarations and external references are refused,
so neither "billion laughs" nor a file from the server's disk can get in."""

from dataclasses import dataclass
from xml.etree.ElementTree import ParseError

from defusedxml import DefusedXmlException, EntitiesForbidden, ExternalReferenceForbidden
from defusedxml.ElementTree import DefusedXMLParser

from loko.formats.xliff12 import escape_attribute, escape_text, same_language
from loko.languages.codes import canonical_code

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
ANY_SOURCE = "*all*"


class TmxError(ValueError):
    """The bytes are not a TMX file Loko reads; the message says why."""


@dataclass(frozen=True)
class Unit:
    source_language: str
    target_language: str
    source: str
    target: str


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _language(element) -> str | None:
    return element.get(XML_LANG) or element.get("lang")


def _segment(tuv) -> str | None:
    for child in tuv:
        if _local(child.tag) == "seg":
            return "".join(child.itertext())
    return None


def _code(text: str) -> str:
    try:
        return canonical_code(text)
    except ValueError:
        raise TmxError(f"xml:lang: {text!r} is not a language code") from None


def parse_xml(data: bytes):
    parser = DefusedXMLParser(forbid_dtd=False, forbid_entities=True, forbid_external=True)
    try:
        parser.feed(data)
        return parser.close()
    except EntitiesForbidden:
        raise TmxError("entity declarations are not allowed") from None
    except ExternalReferenceForbidden:
        raise TmxError("external references are not allowed") from None
    except DefusedXmlException as error:
        raise TmxError(f"refused: {error}") from None
    except ParseError as error:
        raise TmxError(f"not well-formed XML: {error}") from None
    except (LookupError, ValueError) as error:
        raise TmxError(f"unsupported encoding: {error}") from None


def read(data: bytes, max_units: int) -> list[Unit]:
    """Each translation unit's source with each of its other languages; TmxError when the
    file is not TMX or holds more than ``max_units`` pairs."""
    root = parse_xml(data)
    if _local(root.tag) != "tmx":
        raise TmxError("the root element is not <tmx>")
    header = next((child for child in root if _local(child.tag) == "header"), None)
    header_source = header.get("srclang") if header is not None else None
    body = next((child for child in root if _local(child.tag) == "body"), None)
    if body is None:
        raise TmxError("<body> is missing")
    units: list[Unit] = []
    for tu in body:
        if _local(tu.tag) != "tu":
            continue
        variants = [(_language(tuv), _segment(tuv)) for tuv in tu if _local(tuv.tag) == "tuv"]
        variants = [(language, text) for language, text in variants if language and text]
        if len(variants) < 2:
            continue
        wanted = tu.get("srclang") or header_source
        if not wanted or wanted == ANY_SOURCE:
            wanted = variants[0][0]
        source = next((variant for variant in variants if same_language(variant[0], wanted)), None)
        if source is None:
            continue
        source_code = _code(source[0])
        for language, text in variants:
            if language is source[0]:
                continue
            units.append(Unit(source_code, _code(language), source[1], text))
            if len(units) > max_units:
                raise TmxError(f"more than {max_units} translation pairs in one file")
    return units


def write(units: list[tuple[str, list[tuple[str, str]]]], source_language: str) -> bytes:
    """``units``: (source language, [(language, text), ...] with the source first) each."""
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n'
        '<header creationtool="Loko" creationtoolversion="1" datatype="plaintext" segtype="sentence" '
        f'adminlang="en" srclang="{escape_attribute(source_language)}" o-tmf="loko"/>\n<body>\n'
    ]
    for unit_source, variants in units:
        out.append(f'<tu srclang="{escape_attribute(unit_source)}">')
        for language, text in variants:
            out.append(f'<tuv xml:lang="{escape_attribute(language)}"><seg>{escape_text(text)}</seg></tuv>')
        out.append("</tu>\n")
    out.append("</body>\n</tmx>\n")
    return "".join(out).encode()
