"""Flutter ARB (Application Resource Bundle): one JSON object of keys with ICU messages, each
key optionally followed by an ``@key`` object of metadata.

ARB messages already are ICU, so values (plurals included) are kept as written. Of a key's
``@key`` object, ``description`` is ``Entry.comment`` and the rest (``placeholders``,
``type``, ``context``, ...) is ``meta["arb"]``, written back as read. Because Flutter's
``gen_l10n`` turns the placeholders, in their order, into the parameters of the generated
method, their order is also kept as a list (``meta["placeholder_order"]``), which survives
storage that sorts object keys.

Global attributes (``@@locale``, ``@@last_modified``, ``@@author``, ...) belong to the file,
not to a key, and are not kept: the writer writes ``@@locale`` from the target's language
(with ``_`` between subtags, as ``gen_l10n`` expects), and no other. An ``@key`` object
without its key is dropped; a key without a value (None) is left out of the file.

The writer is deterministic: 2-space indentation, ``@@locale`` first, then the keys sorted,
each followed by its ``@key`` (``description`` first), UTF-8 and a final newline.
"""

import json

from loko.formats import Entry, FormatError, Target

NAME = "arb"
LABEL = "Flutter ARB"
EXTENSION = ".arb"
MEDIA_TYPE = "application/json"
KEEPS = frozenset({"plurals", "comments"})


def _object(pairs: list[tuple]) -> dict:
    document = {}
    for name, value in pairs:
        if name in document:
            raise FormatError(f"the name {name!r} appears twice in one object")
        document[name] = value
    return document


def _constant(name: str):
    raise FormatError(f"{name} is not JSON")


def _check_strings(value) -> None:
    """Refuse lone surrogates (``"\\ud800"``), which JSON escapes allow but UTF-8 cannot hold."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise FormatError(f"the string {value!r} holds a lone surrogate escape") from None
    elif isinstance(value, dict):
        for name, item in value.items():
            _check_strings(name)
            _check_strings(item)
    elif isinstance(value, list):
        for item in value:
            _check_strings(item)


def read(data: bytes, language: str) -> list[Entry]:
    """The keys of an ARB file in file order; FormatError naming the line for bytes that are
    not UTF-8 or not JSON, and for a file that is not one object of strings and ``@key``
    objects."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise FormatError("the bytes are not valid UTF-8", line=line) from None
    try:
        document = json.loads(text, object_pairs_hook=_object, parse_constant=_constant)
    except json.JSONDecodeError as error:
        raise FormatError(error.msg, line=error.lineno) from None
    _check_strings(document)
    if not isinstance(document, dict):
        start = len(text) - len(text.lstrip())
        raise FormatError("an ARB file is one JSON object", line=text.count("\n", 0, start) + 1)

    for key, value in document.items():
        if key.startswith("@@"):
            continue
        if key.startswith("@") and not isinstance(value, dict):
            raise FormatError(f"the metadata {key!r} is not an object")
        if not key.startswith("@") and not isinstance(value, str):
            raise FormatError(f"the value of {key!r} is not a string")
    return [_entry(key, value, document.get(f"@{key}")) for key, value in document.items() if key[:1] != "@"]


def _entry(key: str, value: str, attributes: dict | None) -> Entry:
    attributes = dict(attributes or {})
    comment = attributes.pop("description") if isinstance(attributes.get("description"), str) else None
    meta = {}
    if attributes:
        meta["arb"] = attributes
        placeholders = attributes.get("placeholders")
        if isinstance(placeholders, dict) and len(placeholders) > 1:
            meta["placeholder_order"] = list(placeholders)
    return Entry(key=key, value=value, comment=comment, meta=meta or None)


def _attributes(entry: Entry) -> dict:
    meta = entry.meta or {}
    attributes = {"description": entry.comment} if entry.comment is not None else {}
    for name, value in (meta.get("arb") or {}).items():
        if name == "description" and entry.comment is not None:
            continue
        if name == "placeholders" and isinstance(value, dict) and meta.get("placeholder_order"):
            order = [placeholder for placeholder in meta["placeholder_order"] if placeholder in value]
            value = {placeholder: value[placeholder] for placeholder in order} | value
        attributes[name] = value
    return attributes


def write(entries: list[Entry], target: Target) -> bytes:
    """The ARB file of the entries with a value; ValueError for a key that starts with ``@``,
    which ARB reserves for metadata."""
    document = {"@@locale": target.language.replace("-", "_")}
    for entry in sorted(entries, key=lambda entry: entry.key):
        if entry.key.startswith("@"):
            raise ValueError(f"ARB keys cannot start with '@': {entry.key!r}")
        if entry.value is None:
            continue
        document[entry.key] = entry.value
        attributes = _attributes(entry)
        if attributes:
            document[f"@{entry.key}"] = attributes
    return (json.dumps(document, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
