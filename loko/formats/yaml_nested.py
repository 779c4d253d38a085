"""Nested YAML as Rails (the i18n gem) reads it: one top-level key, the language, over mappings
that nest keys, whose path joined with "." is the key (``de: {a: {b: x}}`` is ``a.b``).

Reading follows the flat YAML rules (see ``yaml_flat``: scalars are the text they spell,
aliases, lists and tags refused, the last of duplicate keys wins), and:

- the top level is one key naming the file's language (``pt-BR`` and ``pt_BR`` match, case
  aside); another or a second top-level key is refused;
- a mapping whose keys are all CLDR plural categories (zero, one, two, few, many, other),
  ``other`` among them, and whose values are all text is one plural (ICU, argument
  ``count``), as the i18n gem's pluralization reads it; the categories need not be the
  language's, as Rails uses ``zero`` for a count of 0 in every language;
- a key that two spellings give (``a.b: x`` beside ``a: {b: y}``), a path deeper than
  ``json_nested.MAX_DEPTH`` or a key longer than ``loko.fields.MAX_KEY`` is refused.

Writing: ``<language>:`` over the keys split on ".", every level sorted, a plural as a
mapping of its forms in CLDR order (when its argument is ``count`` and its selectors are
CLDR categories including ``other``; any other ICU message stays text), in the flat YAML
writer's style. Keys without a value are left out. A key that would be both text and a
mapping (``a`` and ``a.b``, or a plural ``a`` and ``a.b``) raises ValueError.
"""

from collections.abc import Iterator

from loko.formats import Entry, FormatError, Target, json_nested, plurals, yaml_flat

NAME = "yaml-nested"
LABEL = "YAML (nested, Rails)"
EXTENSION = ".yml"
MEDIA_TYPE = "application/yaml"
KEEPS = frozenset({"plurals", "nesting"})


def _is_plural(value) -> bool:
    return (
        isinstance(value, dict)
        and "other" in value
        and set(value) <= set(plurals.CATEGORY_ORDER)
        and all(isinstance(text, str) for text in value.values())
    )


def _rails_members(node: dict) -> Iterator[tuple[str, object, str]]:
    for name, value in node.items():
        yield name, plurals.join(value) if _is_plural(value) else value, name


def _same_language(a: str, b: str) -> bool:
    return a.replace("_", "-").lower() == b.replace("_", "-").lower()


def read(data: bytes, language: str) -> list[Entry]:
    document = yaml_flat.require_mapping(yaml_flat.load(data))
    if not document:
        return []
    names = list(document)
    if len(names) > 1:
        raise FormatError(
            f"a nested YAML file has one top-level key, its language; this one also has {names[1]!r}",
            document.lines[names[1]],
        )
    name = names[0]
    line = document.lines[name]
    if not _same_language(name, language):
        raise FormatError(f"the top-level key {name!r} is not the language {language!r}", line)
    keys = document[name]
    if keys is None:
        return []
    if not isinstance(keys, dict):
        raise FormatError(f"the language key {name!r} must hold a mapping of keys", line)

    def line_of(path: tuple) -> int | None:
        node = keys
        for segment in path[:-1]:
            node = node[segment]
        return node.lines.get(path[-1])

    return json_nested.flatten(keys, _rails_members, line_of)


def write(entries: list[Entry], target: Target) -> bytes:
    values = {entry.key: entry.value for entry in entries if entry.value is not None}
    leaves = []
    for key, value in values.items():
        forms = json_nested.plural_forms(value)
        if forms is not None:
            ordered = sorted(forms, key=plurals.CATEGORY_ORDER.index)
            value = {category: forms[category] for category in ordered}
        leaves.append((key, value, key))
    leaves.sort(key=lambda leaf: leaf[0].split(json_nested.SEPARATOR))
    return yaml_flat.dump({target.language: json_nested.nest(leaves)})
