"""Nested JSON as i18next (v4 JSON format) reads it: objects nest keys, whose path joined with
"." is the key (``{"a": {"b": "x"}}`` is ``a.b``), and plural forms are sibling keys with a
CLDR category suffix (``files_one``, ``files_other``).

Reading: UTF-8 (a leading byte order mark is skipped). Values are strings, ``null`` (a key
without a translation) or objects; a list, a number or a boolean is refused, naming the key
and its line, as is a key that two spellings give (``{"a.b": ..., "a": {"b": ...}}``). Of
duplicate keys in one object the last one wins. Siblings ``<base>_<category>`` whose values
are strings, with ``category`` one of zero, one, two, few, many and other, are one plural
``<base>`` (ICU, argument ``count``) when ``<base>_other`` is among them and ``<base>`` is
not a sibling with a value of its own (an object is fine: its keys are ``<base>.*``); the
category need not be one of the language's, as i18next looks up ``_zero`` for a count of 0
in every language. A base ending in ``_ordinal`` is left alone (ordinal forms are not
cardinal plurals), as are its keys. A path longer than ``MAX_DEPTH`` levels or a key longer
than ``loko.fields.MAX_KEY`` characters is refused while reading, so that a small file
cannot spell huge keys.

Writing: a plural whose argument is ``count`` and whose selectors are CLDR categories
including ``other`` becomes suffixed keys; any other ICU message stays one string. Keys are
split on "." into objects, sorted, indented by two spaces, UTF-8 without ``\\u`` escapes
except for control characters, with a final newline. Keys without a value are left out. A
key that would be both text and an object (``a`` and ``a.b``), two keys that give the same
suffixed key, or a key deeper than ``MAX_DEPTH`` raise ValueError.
"""

from collections.abc import Callable, Iterable, Iterator

import orjson

from loko.fields import MAX_KEY
from loko.formats import Entry, FormatError, Target, json_flat, plurals

NAME = "json-nested"
LABEL = "JSON (nested, i18next)"
EXTENSION = ".json"
MEDIA_TYPE = "application/json"
KEEPS = frozenset({"plurals", "nesting"})

MAX_DEPTH = 64
SEPARATOR = "."


def _suffix(name: str) -> tuple[str | None, str]:
    base, underscore, category = name.rpartition("_")
    if underscore and base and category in plurals.CATEGORY_ORDER and not base.endswith("_ordinal"):
        return base, category
    return None, ""


def _i18next_members(node: dict) -> Iterator[tuple[str, object, str]]:
    groups: dict[str, dict[str, str]] = {}
    for name, value in node.items():
        base, category = _suffix(name)
        if (
            base is not None
            and isinstance(value, str)
            and isinstance(node.get(f"{base}_other"), str)
            and isinstance(node.get(base, {}), dict)
        ):
            groups.setdefault(base, {})[category] = value
    joined: set[str] = set()
    for name, value in node.items():
        base, category = _suffix(name)
        if base not in groups or category not in groups[base]:
            yield name, value, name
        elif base not in joined:
            joined.add(base)
            yield base, plurals.join(groups[base]), f"{base}_other"


Members = Callable[[dict], Iterable[tuple[str, object, str]]]


def flatten(root: dict, members: Members, line_of: Callable[[tuple], int | None]) -> list[Entry]:
    """The entries of a nested document, depth first in file order.

    ``members(node)`` gives each ``(name, value, source name)`` of an object, plurals already
    joined (the source name is the key whose line an error names); ``line_of(path)`` is the
    line of the key at ``path`` (source names from the top).
    """
    entries: list[Entry] = []
    seen: set[str] = set()
    stack = [((), (), iter(members(root)))]
    while stack:
        names, sources, iterator = stack[-1]
        member = next(iterator, None)
        if member is None:
            stack.pop()
            continue
        name, value, source = member
        path, source_path = (*names, name), (*sources, source)
        key = SEPARATOR.join(path)
        if len(path) > MAX_DEPTH:
            raise FormatError(f"{key!r} nests more than {MAX_DEPTH} levels deep", line_of(source_path))
        if len(key) > MAX_KEY:
            raise FormatError(
                f"a key is longer than {MAX_KEY} characters: {key[:40]!r}...", line_of(source_path)
            )
        if isinstance(value, dict):
            stack.append((path, source_path, iter(members(value))))
            continue
        if value is not None and not isinstance(value, str):
            raise FormatError(
                f"the value of {key!r} is {json_flat.kind_of(value)}, not text", line_of(source_path)
            )
        if key in seen:
            raise FormatError(
                f"the key {key!r} is given twice, once with a dot in a name", line_of(source_path)
            )
        seen.add(key)
        entries.append(Entry(key, value))
    return entries


def read(data: bytes, language: str) -> list[Entry]:
    text, document = json_flat.load_object(data)
    return flatten(document, _i18next_members, lambda path: json_flat.key_line(text, path))


def plural_forms(value: str) -> dict[str, str] | None:
    """The forms of ``value`` by category when it is a plural that nested formats write as
    forms (argument ``count``, CLDR categories only, ``other`` among them), else None."""
    plural = plurals.split(value)
    if (
        plural is None
        or plural.argument != plurals.DEFAULT_ARGUMENT
        or "other" not in plural.forms
        or not set(plural.forms) <= set(plurals.CATEGORY_ORDER)
    ):
        return None
    return plural.forms


def _conflict(leaves: list[tuple[str, object, str]]) -> ValueError:
    """The error naming the keys that cannot share a nested file; only called once ``nest``
    has found that some do."""
    origin_of: dict[str, str] = {}
    child_of: dict[str, str] = {}
    for key, _leaf, origin in leaves:
        if key in origin_of:
            return ValueError(f"the keys {origin_of[key]!r} and {origin!r} both give {key!r}")
        origin_of[key] = origin
        segments = key.split(SEPARATOR)
        for end in range(1, len(segments)):
            child_of.setdefault(SEPARATOR.join(segments[:end]), origin)
    for key, origin in origin_of.items():
        if key in child_of:
            return ValueError(
                f"the key {origin!r} has a value and cannot also hold {child_of[key]!r} "
                "in a nested file; rename one of them or use a flat format"
            )
    return ValueError("two keys cannot share a nested file")


def nest(leaves: list[tuple[str, object, str]]) -> dict:
    """A tree of objects from ``(key, leaf, origin key)`` triples, keys split on "." and levels
    in the order keys first reach them; a leaf is kept whole even when it is a dict (a plural's
    forms). ValueError when a key would be both a leaf and an object, when two origins give
    the same key, or when a key nests deeper than ``MAX_DEPTH``."""
    tree: dict = {}
    leaf_dicts: set[int] = set()
    for key, leaf, origin in leaves:
        segments = key.split(SEPARATOR)
        if len(segments) > MAX_DEPTH:
            raise ValueError(f"the key {origin!r} nests more than {MAX_DEPTH} levels deep")
        node = tree
        for segment in segments[:-1]:
            child = node.get(segment)
            if child is None:
                child = node[segment] = {}
            elif not isinstance(child, dict) or id(child) in leaf_dicts:
                raise _conflict(leaves)
            node = child
        if segments[-1] in node:
            raise _conflict(leaves)
        node[segments[-1]] = leaf
        if isinstance(leaf, dict):
            leaf_dicts.add(id(leaf))
    return tree


def write(entries: list[Entry], target: Target) -> bytes:
    values = {entry.key: entry.value for entry in entries if entry.value is not None}
    leaves = []
    for key, value in values.items():
        forms = plural_forms(value)
        if forms is None:
            leaves.append((key, value, key))
        else:
            leaves.extend((f"{key}_{category}", text, key) for category, text in forms.items())
    return orjson.dumps(nest(leaves), option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"
