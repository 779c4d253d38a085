"""Android string resources (``res/values/strings.xml``): ``<string>``, ``<plurals>`` and
``<string-array>`` elements in one ``<resources>``.

- ``<string name>`` is a key. ``<plurals name>`` is one key whose ``<item quantity>``
  elements become one ICU plural message with the argument ``count``; a plural's ``=N``
  forms have no Android quantity and are left out when writing. ``<string-array name>``
  gives one key per ``<item>``, ``name[0]``, ``name[1]``, ..., each with
  ``meta["android"]["array"]`` naming the array so that the writer groups them back (in index
  order; an array whose items are all None is left out, a None item is written empty).
- The comments right before an element (with no blank line between), joined by line breaks,
  are its ``Entry.comment``; a comment before a ``<string-array>`` belongs to its first item
  and one before an ``<item>`` to that item. Comments inside ``<plurals>``, section comments
  followed by a blank line and other resource types (``<color>``, ``<dimen>``, ...) are not
  kept.
- The element's other attributes (``translatable="false"``, ``formatted``, ``tools:...``)
  are kept in ``meta["android"]["attributes"]`` as ``[name, value]`` pairs, in order, and
  written back.
- Values are the text a user sees: Android's escapes (``\\'``, ``\\"``, ``\\\\``, ``\\n``,
  ``\\t``, ``\\@``, ``\\?``, ``\\uHHHH``) are resolved, double quotes that are not escaped only
  preserve the whitespace they enclose, and other runs of whitespace become one space, with
  none at either end.
- Markup: a value whose element holds child elements (``<b>``, ``<xliff:g>``) is that inner
  XML fragment, tags as written (attributes in double quotes, empty elements as ``<x/>``) and
  text unescaped as above but still XML-escaped (``&amp;``, ``&lt;``), with
  ``meta["android"]["markup"]`` true. The writer writes a value as markup when it is a
  well-formed fragment holding an element, unless the key's meta says it is plain text (a
  value read from escaped text, ``&lt;b&gt;``, keeps ``markup`` false); anything else is
  text and escaped. A value read from a ``<![CDATA[...]]>`` section is plain text with
  ``meta["android"]["cdata"]`` true, and is written back in a CDATA section. Comments inside
  a value are not kept.
- Resource references: a text whose raw form (before Android's escapes are resolved) is a
  well-formed reference, ``@[+][*][package:]type/name``, ``@null``, ``@empty`` or
  ``?[package:][attr/]name`` (``@string/app_name``, ``@android:string/ok``,
  ``?android:attr/textColorPrimary``), is a reference for Android, not text: it is kept as
  written (the value is ``@string/app_name``). The writer writes a value that is a
  well-formed reference unescaped, unless the key's meta says it was read escaped:
  ``meta["android"]["literal"]`` true for a ``\\@string/app_name`` that is text (for
  ``<plurals>``, ``meta["android"]["literals"]`` lists such quantities). Any other ``@`` or
  ``?`` at the start is text and written ``\\@`` or ``\\?``, so an escaped ``\\@home`` and a
  reference both come back as they were read, in every language (a key's meta comes from one
  language's file; references are the common case, so it is the rare escaped lookalike that
  is marked). An unescaped ``@`` or ``?`` that does not start a well-formed reference
  (``@home``) is text to Android too, and is written back escaped.
- A ``<string>`` whose text happens to be an ICU plural message is marked
  (``meta["android"]["element"] = "string"``) so that it is written back as a ``<string>``
  and not as ``<plurals>``. The attributes of ``<resources>`` itself are not kept.

The writer is deterministic and canonical: ``<?xml version="1.0" encoding="utf-8"?>``,
``<resources>`` (declaring ``xmlns:tools`` and ``xmlns:xliff`` only when used), 4-space
indentation, entries in the order given, comments as ``<!-- text -->`` on the line before
(``--`` becomes ``- -``), keys whose value is None left out, and a final newline. Text
(not a reference, see above) is escaped as ``\\\\``, ``\\"``, ``\\'``, ``\\n``, ``\\t``,
``\\@`` and ``\\?`` at the start, ``&amp;``, ``&lt;``, ``&gt;``, characters XML cannot hold
(and carriage returns) as ``\\uHHHH``, and wrapped in double quotes when it starts or ends
with a space or holds two spaces in a row.

Parsing refuses document type declarations (no entities, no external references) and
elements nested more than 64 deep; every problem is a ``FormatError`` naming the line.
"""

import re
from dataclasses import dataclass, field
from xml.sax import SAXParseException
from xml.sax.handler import ContentHandler, LexicalHandler, property_lexical_handler

from defusedxml import DefusedXmlException, DTDForbidden, EntitiesForbidden
from defusedxml.expatreader import DefusedExpatParser

from loko.formats import Entry, FormatError, Target, plurals

NAME = "android"
LABEL = "Android strings.xml"
EXTENSION = ".xml"
MEDIA_TYPE = "application/xml"
KEEPS = frozenset({"plurals", "comments"})

MAX_DEPTH = 64
QUANTITIES = ("zero", "one", "two", "few", "many", "other")
TOOLS_NAMESPACE = "http://schemas.android.com/tools"
XLIFF_NAMESPACE = "urn:oasis:names:tc:xliff:document:1.2"
_INDENT = "    "
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0d\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_ARRAY_ITEM = re.compile(r"(.*)\[(\d+)\]", re.DOTALL)
_XML_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
# What aapt2 takes for a reference rather than text in a <string> or <item>, with names
# limited to the characters resource names have.
_RESOURCE_TYPES = (
    "anim|animator|array|attr|bool|color|dimen|drawable|font|fraction|id|integer|interpolator|"
    "layout|macro|menu|mipmap|navigation|plurals|raw|string|style|styleable|transition|xml"
)
_PACKAGE = r"[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)*"
_RESOURCE_NAME = r"[A-Za-z_$][A-Za-z0-9_.$]*"
_REFERENCE = re.compile(
    rf"@null|@empty"
    rf"|@\*?(?:{_PACKAGE}:)?(?:{_RESOURCE_TYPES})/{_RESOURCE_NAME}"
    rf"|@\+(?:{_PACKAGE}:)?id/{_RESOURCE_NAME}"
    rf"|\?(?:{_PACKAGE}:)?(?:attr/)?{_RESOURCE_NAME}"
)


@dataclass
class _Text:
    parts: list[str]
    cdata: bool


@dataclass
class _Comment:
    text: str


@dataclass
class _Element:
    name: str
    attributes: list[tuple[str, str]]
    line: int
    children: list = field(default_factory=list)


class _Reader(ContentHandler, LexicalHandler):
    """Builds a small tree of elements, text (marking CDATA) and comments, with lines."""

    def __init__(self):
        super().__init__()
        self.document = _Element("", [], 1)
        self._stack = [self.document]
        self._cdata = False
        self.locator = None

    def line(self) -> int | None:
        return self.locator.getLineNumber() if self.locator is not None else None

    def setDocumentLocator(self, locator):
        self.locator = locator

    def startElement(self, name, attrs):
        if len(self._stack) > MAX_DEPTH:
            raise FormatError(f"elements nested more than {MAX_DEPTH} deep", self.line())
        element = _Element(name, list(attrs.items()), self.line())
        self._stack[-1].children.append(element)
        self._stack.append(element)

    def endElement(self, name):
        self._stack.pop()

    def characters(self, content):
        children = self._stack[-1].children
        if children and isinstance(children[-1], _Text) and children[-1].cdata == self._cdata:
            children[-1].parts.append(content)
        else:
            children.append(_Text([content], self._cdata))

    def comment(self, content):
        self._stack[-1].children.append(_Comment(content))

    def startCDATA(self):
        self._cdata = True

    def endCDATA(self):
        self._cdata = False


def _parse(data: bytes) -> _Element:
    reader = _Reader()
    parser = DefusedExpatParser(forbid_dtd=True)
    # feed() does not hand out a locator; the parser is one (its line is expat's).
    reader.setDocumentLocator(parser)
    parser.setContentHandler(reader)
    parser.setProperty(property_lexical_handler, reader)
    try:
        parser.feed(data)
        parser.close()
    except SAXParseException as error:
        raise FormatError(f"not well-formed XML: {error.getMessage()}", error.getLineNumber()) from None
    except DefusedXmlException as error:
        if isinstance(error, DTDForbidden):
            message = "document type declarations are not allowed"
        elif isinstance(error, EntitiesForbidden):
            message = "entity declarations are not allowed"
        else:
            message = "external references are not allowed"
        raise FormatError(message, reader.line()) from None
    except FormatError:
        raise
    except (LookupError, ValueError) as error:
        # expat hands encodings it does not know to Python's codecs, which refuse this way.
        raise FormatError(f"unsupported encoding: {error}", reader.line()) from None
    return reader.document


# Reading: the tokens of an element's content, ("text", ...) or ("tag", ...), then unescaped.


def _tokens(element: _Element, out: list) -> None:
    for child in element.children:
        if isinstance(child, _Text):
            out.append(("text", "".join(child.parts)))
        elif isinstance(child, _Element):
            start = child.name + "".join(
                f' {name}="{_xml_attribute(value)}"' for name, value in child.attributes
            )
            if child.children:
                out.append(("tag", f"<{start}>"))
                _tokens(child, out)
                out.append(("tag", f"</{child.name}>"))
            else:
                out.append(("tag", f"<{start}/>"))


def _unescape(tokens: list, xml: bool) -> str:
    """The text Android shows for ``tokens``; tags are kept, and with ``xml`` the text is
    XML-escaped again so that the result is a fragment."""
    out: list[str] = []
    quoted = space = False
    for kind, text in tokens:
        if kind == "tag":
            if space and out:
                out.append(" ")
            space = False
            out.append(text)
            continue
        position = 0
        while position < len(text):
            character = text[position]
            position += 1
            if character == "\\" and position < len(text):
                escaped = text[position]
                position += 1
                if escaped == "n":
                    character = "\n"
                elif escaped == "t":
                    character = "\t"
                elif escaped == "u" and re.fullmatch(r"[0-9A-Fa-f]{4}", text[position : position + 4]):
                    character = chr(int(text[position : position + 4], 16))
                    position += 4
                else:
                    character = escaped
            elif character == '"':
                quoted = not quoted
                continue
            elif character in " \t\n\r" and not quoted:
                space = True
                continue
            if space and out:
                out.append(" ")
            space = False
            out.append(_XML_ESCAPES.get(character, character) if xml else character)
    return _join_surrogates("".join(out))


def _join_surrogates(text: str) -> str:
    # \uD83D\uDE00 read as two escapes is one character.
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def _content(element: _Element) -> tuple[str, dict]:
    """The value of a ``<string>`` or ``<item>`` and what the writer needs to write it back."""
    tokens: list = []
    _tokens(element, tokens)
    if any(kind == "tag" for kind, _ in tokens):
        return _unescape(tokens, xml=True), {"markup": True}
    value = _unescape(tokens, xml=False)
    how = {}
    if any(isinstance(child, _Text) and child.cdata for child in element.children):
        how["cdata"] = True
    elif "<" in value:
        how["markup"] = False
    # Android tells a reference from text by the raw text, before its escapes and quotes: a
    # value shaped like a reference that was written escaped is text, and marked as such.
    if _is_reference(value) and "".join(text for _, text in tokens).strip(" \t\n\r") != value:
        how["literal"] = True
    return value, how


def _is_reference(value: str) -> bool:
    return value[:1] in ("@", "?") and _REFERENCE.fullmatch(value) is not None


def _comments_before(children: list, index: int) -> str | None:
    texts = []
    for position in range(index - 1, -1, -1):
        child = children[position]
        if isinstance(child, _Comment):
            texts.append(child.text.strip())
        elif isinstance(child, _Text):
            text = "".join(child.parts)
            if text.count("\n") > 1 or text.strip():
                break
        else:
            break
    return "\n".join(reversed(texts)) if texts else None


def read(data: bytes, language: str) -> list[Entry]:
    document = _parse(data)
    roots = [child for child in document.children if isinstance(child, _Element)]
    if not roots or roots[0].name != "resources":
        raise FormatError("the root element is not <resources>", roots[0].line if roots else None)
    resources = roots[0]
    entries: list[Entry] = []
    seen: dict[str, int] = {}

    def add(entry: Entry, line: int) -> None:
        if entry.key in seen:
            raise FormatError(f"the key {entry.key!r} appears twice (first on line {seen[entry.key]})", line)
        seen[entry.key] = line
        entries.append(entry)

    for index, element in enumerate(resources.children):
        if not isinstance(element, _Element) or element.name not in ("string", "plurals", "string-array"):
            continue
        name = dict(element.attributes).get("name")
        if name is None:
            raise FormatError(f"a <{element.name}> without a name", element.line)
        meta: dict = {}
        attributes = [[key, value] for key, value in element.attributes if key != "name"]
        if attributes:
            meta["attributes"] = attributes
        comment = _comments_before(resources.children, index)
        if element.name == "string":
            value, how = _content(element)
            if plurals.split(value) is not None:
                how["element"] = "string"
            add(Entry(name, value, comment, meta=_meta(meta | how)), element.line)
        elif element.name == "plurals":
            add(Entry(name, _plural(element, meta), comment, meta=_meta(meta)), element.line)
        else:
            _array(element, name, meta, comment, add)
    return entries


def _meta(android: dict) -> dict | None:
    return {"android": android} if android else None


def _plural(element: _Element, meta: dict) -> str:
    forms: dict[str, str] = {}
    for item in element.children:
        if not isinstance(item, _Element):
            continue
        quantity = dict(item.attributes).get("quantity")
        if item.name != "item" or quantity not in QUANTITIES:
            raise FormatError(f"<plurals> holds <{item.name}> with quantity {quantity!r}", item.line)
        if quantity in forms:
            raise FormatError(f"the quantity {quantity!r} appears twice", item.line)
        forms[quantity], how = _content(item)
        if how.get("markup") or how.get("cdata"):
            meta.update({name: flag for name, flag in how.items() if name != "literal"})
        if how.get("literal"):
            meta.setdefault("literals", []).append(quantity)
    if not forms:
        raise FormatError("<plurals> without an <item>", element.line)
    return plurals.join(forms)


def _array(element: _Element, name: str, meta: dict, comment: str | None, add) -> None:
    position = 0
    for index, item in enumerate(element.children):
        if not isinstance(item, _Element):
            continue
        if item.name != "item":
            raise FormatError(f"<string-array> holds <{item.name}>", item.line)
        value, how = _content(item)
        item_comment = _comments_before(element.children, index)
        if position == 0 and comment is not None:
            item_comment = comment if item_comment is None else f"{comment}\n{item_comment}"
        add(
            Entry(f"{name}[{position}]", value, item_comment, meta={"android": meta | how | {"array": name}}),
            item.line,
        )
        position += 1


# Writing.


def _xml_attribute(value: str) -> str:
    value = _NOT_XML.sub("", value)
    return (
        value.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("\n", "&#10;")
        .replace("\t", "&#9;")
    )


def _escape(text: str, first: bool, xml: bool = True) -> str:
    if _ESCAPED.search(text) is None and not (first and text[:1] in ("@", "?")):
        return text  # most texts: nothing to escape, no loop over their characters
    out = []
    for position, character in enumerate(text):
        if character == "\\":
            out.append("\\\\")
        elif character == '"':
            out.append('\\"')
        elif character == "'":
            out.append("\\'")
        elif character == "\n":
            out.append("\\n")
        elif character == "\t":
            out.append("\\t")
        elif _NOT_XML.match(character):
            out.append(f"\\u{ord(character):04X}")
        elif character in "@?" and first and position == 0:
            out.append("\\" + character)
        elif xml:
            out.append(_XML_ESCAPES.get(character, character))
        else:
            out.append(character)
    return "".join(out)


_ESCAPED = re.compile("[\\\\\"'\n\t&<>]|" + _NOT_XML.pattern)


def _needs_quotes(text: str) -> bool:
    return text.startswith(" ") or text.endswith(" ") or "  " in text


def _fragment(text: str) -> _Element | None:
    """The parsed ``text`` when it is a well-formed XML fragment holding an element."""
    try:
        root = _parse(b"<fragment>" + text.encode("utf-8", "surrogatepass") + b"</fragment>")
    except FormatError:
        return None
    fragment = root.children[0]
    if not any(isinstance(child, _Element) for child in fragment.children):
        return None
    return fragment


def _markup(element: _Element, out: list[str], plain: list[str]) -> None:
    for child in element.children:
        if isinstance(child, _Text):
            text = "".join(child.parts)
            out.append(_escape(text, first=not out))
            plain.append(text)
        elif isinstance(child, _Element):
            start = child.name + "".join(
                f' {name}="{_xml_attribute(value)}"' for name, value in child.attributes
            )
            if child.children:
                out.append(f"<{start}>")
                _markup(child, out, plain)
                out.append(f"</{child.name}>")
            else:
                out.append(f"<{start}/>")


def _inner(text: str, how: dict, literal: bool = False) -> str:
    """The element content that reads back as ``text``: a well-formed reference as it is,
    unless ``literal`` (the key's meta says it was read as escaped text)."""
    if not literal and _is_reference(text):
        return f"<![CDATA[{text}]]>" if how.get("cdata") else text
    if how.get("cdata") and "]]>" not in text:
        escaped = _escape(text, first=True, xml=False)
        return f'<![CDATA["{escaped}"]]>' if _needs_quotes(text) else f"<![CDATA[{escaped}]]>"
    if how.get("markup") is not False and "<" in text:
        fragment = _fragment(text)
        if fragment is not None:
            out: list[str] = []
            plain: list[str] = []
            _markup(fragment, out, plain)
            inner = "".join(out)
            return f'"{inner}"' if _needs_quotes("".join(plain)) else inner
    escaped = _escape(text, first=True)
    return f'"{escaped}"' if _needs_quotes(text) else escaped


def _comment_lines(comment: str | None, indent: str) -> list[str]:
    if comment is None:
        return []
    text = _NOT_XML.sub("", comment)
    while "--" in text:
        text = text.replace("--", "- -")
    return [f"{indent}<!-- {text} -->"]


def _start_tag(tag: str, name: str, how: dict) -> str:
    pairs = [("name", name)] + [(key, value) for key, value in how.get("attributes") or []]
    return f"<{tag}" + "".join(f' {key}="{_xml_attribute(value)}"' for key, value in pairs) + ">"


def _android(entry: Entry) -> dict:
    return (entry.meta or {}).get("android") or {}


def _index(entry: Entry) -> int:
    match = _ARRAY_ITEM.fullmatch(entry.key)
    return int(match.group(2)) if match else 1 << 30


def write(entries: list[Entry], target: Target) -> bytes:
    arrays: dict[str, list[Entry]] = {}
    for entry in entries:
        name = _android(entry).get("array")
        if name is not None:
            arrays.setdefault(name, []).append(entry)
    body: list[str] = []
    written_arrays: set[str] = set()
    for entry in entries:
        how = _android(entry)
        name = how.get("array")
        if name is not None:
            if name not in written_arrays:
                written_arrays.add(name)
                body += _array_lines(name, arrays[name])
            continue
        if entry.value is None:
            continue
        body += _comment_lines(entry.comment, _INDENT)
        plural = plurals.split(entry.value) if how.get("element") != "string" else None
        if plural is None:
            inner = _inner(entry.value, how, how.get("literal") is True)
            body.append(f"{_INDENT}{_start_tag('string', entry.key, how)}{inner}</string>")
            continue
        body.append(f"{_INDENT}{_start_tag('plurals', entry.key, how)}")
        literals = how.get("literals") or ()
        for quantity, text in plural.forms.items():
            if quantity in QUANTITIES:
                inner = _inner(text, how, quantity in literals)
                body.append(f'{_INDENT * 2}<item quantity="{quantity}">{inner}</item>')
        body.append(f"{_INDENT}</plurals>")
    text = "\n".join(body)
    namespaces = ""
    if re.search(r'\stools:[^\s=]+="', text):
        namespaces += f' xmlns:tools="{TOOLS_NAMESPACE}"'
    if re.search(r"<xliff:", text):
        namespaces += f' xmlns:xliff="{XLIFF_NAMESPACE}"'
    lines = ['<?xml version="1.0" encoding="utf-8"?>', f"<resources{namespaces}>", *body, "</resources>", ""]
    return "\n".join(lines).encode("utf-8")


def _array_lines(name: str, items: list[Entry]) -> list[str]:
    if all(item.value is None for item in items):
        return []
    items = sorted(items, key=_index)
    how = _android(items[0])
    lines = _comment_lines(items[0].comment, _INDENT)
    lines.append(f"{_INDENT}{_start_tag('string-array', name, how)}")
    for position, item in enumerate(items):
        if position:
            lines += _comment_lines(item.comment, _INDENT * 2)
        value = "" if item.value is None else item.value
        how = _android(item)
        inner = _inner(value, how, how.get("literal") is True)
        lines.append(f"{_INDENT * 2}<item>{inner}</item>")
    lines.append(f"{_INDENT}</string-array>")
    return lines
