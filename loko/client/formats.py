"""The formats the server reads and writes, as the client needs them: each one's file
extension, and which ones hold every language in one file. The server's registry
(``loko.formats``) is the reference; the client keeps only this table of it."""

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
