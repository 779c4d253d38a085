"""Apple ``.stringsdict``: an XML property list whose keys each hold a format
(``NSStringLocalizedFormatKey``, ``%#@count@``) and the plural forms of its variable.

Reading: a key whose format names one variable, defined as a ``NSStringPluralRuleType``
dictionary with the forms ``zero``, ``one``, ``two``, ``few``, ``many`` and ``other``, is one
ICU plural message whose argument is the variable's name (``count`` when the name is not a
plain identifier). Text around the variable in the format (``%#@count@ left``) is folded into
every form (``%d file left``), so that all of it can be translated. The format and the
variable's ``NSStringFormatValueTypeKey`` (``d``) are kept in
``meta["stringsdict"]["format"]`` and ``["value_type"]``; the writer takes the surrounding text
back out of the forms when every form still has it, and writes the format as read. A key
whose format names no variable is a plain value (the format itself). A format with more than
one variable (``%#@files@ in %#@folders@``) or a variable of another rule type is refused
with a ``FormatError`` naming the key: Loko keeps one plural per key, so such a key is to be
split into keys of one variable each. Keys inside the variable dictionary other than the
plural forms are not kept, and a key given twice keeps its last definition (as ``plistlib``
reads it). Binary property lists are refused (``plutil -convert xml1``
turns them into XML).

The bytes are first parsed with defusedxml, which allows the property list's document type
declaration but refuses entity declarations and external references (no entity expansion, no
external entities), then read with ``plistlib``; every problem is a ``FormatError``, naming
the line where it can be found.

The writer gives the bytes ``plistlib.dumps`` gives with sorted keys (a test holds it to them),
written straight into one string, since ``plistlib`` writes each line through a method call
and spends most of a large export there: Apple's XML declaration and document type, tab
indentation, the keys sorted, a
plural's forms as ``zero``..``other`` (an ICU ``=0`` form as ``zero`` when there is no
``zero``; other ``=N`` forms have no place and are left out), the value type ``d`` unless the
meta says otherwise, and a final newline. A value that is not a plural is written as a
format without variables; keys whose value is None are left out. Characters that XML 1.0
cannot hold are left out, and ``plistlib`` writes carriage returns as line feeds. There are no
comments in a ``.stringsdict``.
"""

import plistlib
import re
from xml.etree.ElementTree import ParseError

from defusedxml import DefusedXmlException, EntitiesForbidden
from defusedxml.ElementTree import DefusedXMLParser

from loko.formats import Entry, FormatError, Target, plurals

NAME = "stringsdict"
LABEL = "Apple .stringsdict"
EXTENSION = ".stringsdict"
MEDIA_TYPE = "application/x-plist"
KEEPS = frozenset({"plurals"})

FORMAT_KEY = "NSStringLocalizedFormatKey"
SPEC_TYPE_KEY = "NSStringFormatSpecTypeKey"
VALUE_TYPE_KEY = "NSStringFormatValueTypeKey"
PLURAL_RULE = "NSStringPluralRuleType"
_VARIABLE = re.compile(r"%(?:\d+\$)?#@([^@\s]*)@")
_ARGUMENT = re.compile(r"\w+")
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_POSITION = re.compile(r":\s*line \d+, column \d+$")


def _check_xml(data: bytes) -> None:
    parser = DefusedXMLParser(forbid_dtd=False, forbid_entities=True, forbid_external=True)
    try:
        parser.feed(data)
        parser.close()
    except ParseError as error:
        raise FormatError(
            f"not well-formed XML: {_POSITION.sub('', str(error))}", error.position[0]
        ) from None
    except DefusedXmlException as error:
        message = (
            "entity declarations are not allowed"
            if isinstance(error, EntitiesForbidden)
            else "external references are not allowed"
        )
        raise FormatError(message, parser.parser.CurrentLineNumber) from None
    except (LookupError, ValueError) as error:
        # expat hands encodings it does not know to Python's codecs, which refuse this way.
        raise FormatError(f"unsupported encoding: {error}", parser.parser.CurrentLineNumber) from None


def _line_of(text: str, key: str) -> int | None:
    for written in (key, key.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")):
        position = text.find(f"<key>{written}</key>")
        if position >= 0:
            return text.count("\n", 0, position) + 1
    return None


def read(data: bytes, language: str) -> list[Entry]:
    if data.startswith(b"bplist"):
        raise FormatError("binary property lists are not supported; convert with `plutil -convert xml1`")
    _check_xml(data)
    try:
        document = plistlib.loads(data, fmt=plistlib.FMT_XML)
    except Exception as error:  # plistlib raises many kinds on malformed documents
        raise FormatError(f"not a property list: {error}") from None
    if not isinstance(document, dict):
        raise FormatError("the property list does not hold a dictionary")
    entries = []
    for key, spec in document.items():
        try:
            entries.append(_entry(key, spec))
        except _Refused as refusal:
            raise FormatError(str(refusal), _line_of(data.decode("utf-8", "replace"), key)) from None
    return entries


class _Refused(Exception):
    """A key Loko cannot read; ``read`` adds the line."""


def _entry(key: str, spec) -> Entry:
    if not isinstance(spec, dict) or not isinstance(spec.get(FORMAT_KEY), str):
        raise _Refused(f"the key {key!r} is not a dictionary with a {FORMAT_KEY} string")
    format_key = spec[FORMAT_KEY]
    variables = _VARIABLE.findall(format_key)
    if not variables:
        return Entry(key, format_key)
    if len(variables) > 1:
        raise _Refused(
            f"the key {key!r} has {len(variables)} variables ({', '.join(variables)}); Loko keeps one "
            "plural per key, so split it into keys of one variable each"
        )
    variable = variables[0]
    rule = spec.get(variable)
    if not isinstance(rule, dict):
        raise _Refused(f"the variable {variable!r} of the key {key!r} is not defined")
    if rule.get(SPEC_TYPE_KEY) != PLURAL_RULE:
        raise _Refused(
            f"the variable {variable!r} of the key {key!r} is of type {rule.get(SPEC_TYPE_KEY)!r}; "
            f"only {PLURAL_RULE} is supported"
        )
    forms = {category: rule[category] for category in plurals.CATEGORY_ORDER if category in rule}
    if not forms:
        raise _Refused(f"the variable {variable!r} of the key {key!r} has no plural forms")
    if not all(isinstance(form, str) for form in forms.values()):
        raise _Refused(f"the plural forms of the key {key!r} are not all strings")
    match = _VARIABLE.search(format_key)
    prefix, suffix = format_key[: match.start()], format_key[match.end() :]
    forms = {category: f"{prefix}{form}{suffix}" for category, form in forms.items()}
    meta = {"format": format_key}
    if isinstance(rule.get(VALUE_TYPE_KEY), str):
        meta["value_type"] = rule[VALUE_TYPE_KEY]
    argument = variable if _ARGUMENT.fullmatch(variable) else plurals.DEFAULT_ARGUMENT
    return Entry(key, plurals.join(forms, argument), meta={"stringsdict": meta})


def _clean(text: str) -> str:
    return _NOT_XML.sub("", text)


def _spec(value: str, meta: dict) -> dict:
    plural = plurals.split(value)
    if plural is None:
        return {FORMAT_KEY: _clean(value)}
    forms = {category: text for category, text in plural.forms.items() if category in plurals.CATEGORY_ORDER}
    if "=0" in plural.forms and "zero" not in forms:
        forms["zero"] = plural.forms["=0"]
    format_key, variable = meta.get("format"), None
    if isinstance(format_key, str) and len(_VARIABLE.findall(format_key)) == 1:
        match = _VARIABLE.search(format_key)
        prefix, suffix = format_key[: match.start()], format_key[match.end() :]
        if all(
            len(text) >= len(prefix) + len(suffix) and text.startswith(prefix) and text.endswith(suffix)
            for text in forms.values()
        ):
            forms = {
                category: text[len(prefix) : len(text) - len(suffix)] for category, text in forms.items()
            }
            variable = match.group(1)
    if variable is None:
        variable, format_key = plural.argument, f"%#@{plural.argument}@"
    value_type = meta.get("value_type")
    rule = {SPEC_TYPE_KEY: PLURAL_RULE, VALUE_TYPE_KEY: value_type if isinstance(value_type, str) else "d"}
    rule.update((category, _clean(text)) for category, text in forms.items())
    return {FORMAT_KEY: _clean(format_key), _clean(variable): rule}


_HEADER = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
    '<plist version="1.0">\n'
)


def _escape(text: str) -> str:
    """``plistlib``'s escaping: line ends as line feeds, then ``&``, ``<`` and ``>``."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _write_dict(document: dict, tabs: str, out: list) -> None:
    """A dictionary of strings and dictionaries as ``plistlib`` writes it with sorted keys."""
    if not document:
        out.append(f"{tabs}<dict/>\n")
        return
    out.append(f"{tabs}<dict>\n")
    inner = tabs + "\t"
    for key, value in sorted(document.items()):
        if isinstance(value, str):
            out.append(f"{inner}<key>{_escape(key)}</key>\n{inner}<string>{_escape(value)}</string>\n")
        else:
            out.append(f"{inner}<key>{_escape(key)}</key>\n")
            _write_dict(value, inner, out)
    out.append(f"{tabs}</dict>\n")


def write(entries: list[Entry], target: Target) -> bytes:
    document = {}
    for entry in entries:
        if entry.value is not None:
            meta = (entry.meta or {}).get("stringsdict") or {}
            document[_clean(entry.key)] = _spec(entry.value, meta if isinstance(meta, dict) else {})
    out = [_HEADER]
    _write_dict(document, "", out)
    out.append("</plist>\n")
    return "".join(out).encode()
