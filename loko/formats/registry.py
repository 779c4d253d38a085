"""``FORMATS``: every format's module by its ``format=`` name, imported on first use, and the
detection of a file's format from its name and first bytes."""

import importlib
from types import ModuleType

from loko.client.formats import format_of_file
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


def format_module(name: str) -> ModuleType:
    """The module of format ``name``; BadRequest naming the known ones otherwise."""
    if name not in MODULES:
        raise BadRequest(f"format: unknown format {name!r}; one of {', '.join(FORMAT_NAMES)}.")
    return importlib.import_module(f"loko.formats.{MODULES[name]}")


def extension_of(name: str) -> str:
    return format_module(name).EXTENSION


def detect_format(path: str, data: bytes) -> str:
    """The format of a file from its name's extension, and for JSON, YAML and XLIFF (where one
    extension has several formats) from its first bytes (``format_of_file``, shared with the
    command-line client); BadRequest when none fits."""
    name = format_of_file(path, data)
    if name is None:
        raise BadRequest(
            f"format: cannot tell the format of {path!r} from its name; pass `format` "
            f"(one of {', '.join(FORMAT_NAMES)})."
        )
    return name
