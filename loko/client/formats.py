"""The formats the server reads and writes, as the client needs them: each one's file
extension, which ones hold every language in one file, and how a file's name and first
bytes tell its format (``format_of_file``, which the server's import uses too). The
server's registry (``loko.formats``) is the reference for the rest; the client keeps only
this table of it."""

import re

EXTENSIONS = {
    "json": ".json",
    "json-nested": ".json",
    "po": ".po",
    "xliff": ".xlf",
    "xliff2": ".xlf",
    "android": ".xml",
    "strings": ".strings",
    "stringsdict": ".stringsdict",
    "arb": ".arb",
    "yaml": ".yml",
    "yaml-nested": ".yml",
    "csv": ".csv",
    "properties": ".properties",
}
FORMAT_NAMES = tuple(EXTENSIONS)
# One file holds every language: the export's entries are `{fileName}.csv`, without a
# language folder, and the path template has no {language}.
MULTILINGUAL = frozenset({"csv"})
# Each file holds a source text beside its translation: the export names a source language.
BILINGUAL = frozenset({"xliff", "xliff2"})
# Where one extension has several formats, the flat one, which is the more common.
BY_EXTENSION = {
    ".json": "json",
    ".po": "po",
    ".pot": "po",
    ".xlf": "xliff",
    ".xliff": "xliff",
    ".xml": "android",
    ".strings": "strings",
    ".stringsdict": "stringsdict",
    ".arb": "arb",
    ".yml": "yaml",
    ".yaml": "yaml",
    ".csv": "csv",
    ".properties": "properties",
}


def extension_of(format_name: str) -> str:
    return EXTENSIONS[format_name]


def is_multilingual(format_name: str) -> bool:
    return format_name in MULTILINGUAL


def format_of_path(path: str) -> str | None:
    """The format a file name's extension suggests, or None."""
    name = path.rsplit("/", 1)[-1].lower()
    if "." not in name:
        return None
    return BY_EXTENSION.get(name[name.rfind(".") :])


XLIFF_VERSION = re.compile(rb"<xliff[^>]*\sversion\s*=\s*[\"']([0-9.]+)")


def format_of_file(path: str, data: bytes) -> str | None:
    """The format of a file from its name's extension and, for JSON, YAML and XLIFF (where
    one extension has several formats), from its first bytes; None when the name says
    nothing."""
    suggested = format_of_path(path)
    if suggested == "json":
        return "json-nested" if _nested_json(data) else "json"
    if suggested == "yaml":
        return "yaml-nested" if _nested_yaml(data) else "yaml"
    if suggested == "xliff":
        match = XLIFF_VERSION.search(data[:4096])
        return "xliff2" if match and match.group(1).startswith(b"2") else "xliff"
    return suggested


def _nested_json(data: bytes) -> bool:
    import orjson

    try:
        document = orjson.loads(data)
    except orjson.JSONDecodeError:
        return False
    return isinstance(document, dict) and any(isinstance(value, dict) for value in document.values())


def _nested_yaml(data: bytes) -> bool:
    """A YAML file whose only root key maps to a mapping, Rails style (``de: {...}``)."""
    head = data[:65536].decode("utf-8", "replace")
    roots = [
        line for line in head.splitlines() if line and not line[0].isspace() and not line.startswith("#")
    ]
    roots = [line for line in roots if line != "---"]
    return len(roots) == 1 and roots[0].rstrip().endswith(":")
