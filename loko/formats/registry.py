"""``FORMATS``: every format's module by its ``format=`` name, imported on first use, and the
detection of a file's format from its name and first bytes."""

import importlib
import re
from types import ModuleType

from loko.errors import BadRequest

MODULES = {
    "json": "json_flat",
    "json-nested": "json_nested",
    "po": "po",
    "xliff": "xliff12",
    "xliff2": "xliff2",
    "android": "android",
    "strings": "apple_strings",
    "stringsdict": "stringsdict",
    "arb": "arb",
    "yaml": "yaml_flat",
    "yaml-nested": "yaml_nested",
    "csv": "csv_table",
    "properties": "properties",
}
FORMAT_NAMES = tuple(MODULES)
BY_EXTENSION = {
    ".po": "po",
    ".pot": "po",
    ".xlf": "xliff",
    ".xliff": "xliff",
    ".xml": "android",
    ".strings": "strings",
    ".stringsdict": "stringsdict",
    ".arb": "arb",
    ".csv": "csv",
    ".properties": "properties",
}


def format_module(name: str) -> ModuleType:
    """The module of format ``name``; BadRequest naming the known ones otherwise."""
    if name not in MODULES:
        raise BadRequest(f"format: unknown format {name!r}; one of {', '.join(FORMAT_NAMES)}.")
    return importlib.import_module(f"loko.formats.{MODULES[name]}")


def extension_of(name: str) -> str:
    return format_module(name).EXTENSION


XLIFF_VERSION = re.compile(rb"<xliff[^>]*\sversion\s*=\s*[\"']([0-9.]+)")


def detect_format(path: str, data: bytes) -> str:
    """The format of a file from its name's extension, and for JSON, YAML and XLIFF (where one
    extension has several formats) from its first bytes; BadRequest when none fits."""
    lowered = path.lower()
    extension = lowered[lowered.rfind(".") :] if "." in lowered.rsplit("/", 1)[-1] else ""
    if extension == ".json":
        return "json-nested" if _nested_json(data) else "json"
    if extension in (".yml", ".yaml"):
        return "yaml-nested" if _nested_yaml(data) else "yaml"
    if extension in (".xlf", ".xliff"):
        match = XLIFF_VERSION.search(data[:4096])
        return "xliff2" if match and match.group(1).startswith(b"2") else "xliff"
    if extension in BY_EXTENSION:
        return BY_EXTENSION[extension]
    raise BadRequest(
        f"format: cannot tell the format of {path!r} from its name; pass `format` "
        f"(one of {', '.join(FORMAT_NAMES)})."
    )


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
