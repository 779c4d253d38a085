"""The format registry: one module per file format, each a reader (bytes -> entries) and a
writer (entries -> bytes) over the same plain entries, with no I/O beyond bytes in and out.
The export, the import, the pipeline CLI, the web app and the repository integration all
look formats up here.

Each format module defines:

- ``NAME`` (the ``format=`` value), ``LABEL`` (for people), ``EXTENSION`` (with the dot),
  ``MEDIA_TYPE``, ``KEEPS`` (a subset of ``{"plurals", "comments", "context", "nesting"}``:
  what survives a round trip besides keys and values);
- ``read(data: bytes, language: str) -> list[Entry]``: raises ``FormatError`` naming the
  line when the bytes do not parse;
- ``write(entries: list[Entry], target: Target) -> bytes``: deterministic, so the same
  entries always give the same bytes;

and, for a format whose one file holds every language (CSV), ``MULTILINGUAL = True`` with
``read_all(data) -> dict[language, list[Entry]]`` and ``write_all(entries_by_language,
target) -> bytes`` instead.

A plural value is stored as one ICU plural message (``{count, plural, one {# file} other
{# files}}``, see ``plurals``); formats with plural forms of their own convert to and from it.
"""

from dataclasses import dataclass, field


@dataclass
class Entry:
    """One key of one file in one language.

    ``value`` is the text (a plural is one ICU plural message), or None for a key the file
    lists without a translation (an empty PO msgstr, an XLIFF unit without a target).
    ``comment`` and ``context`` are the key's note and disambiguating context where the
    format has them; ``meta`` keeps what else a format needs to write the key back as it read
    it (JSON-serializable, owned by that format, for example ARB's placeholders).
    ``max_length`` is the longest value the key's place holds, in characters, where the
    format can say so (XLIFF 1.2's ``maxwidth``).
    """

    key: str
    value: str | None
    comment: str | None = None
    context: str | None = None
    meta: dict | None = None
    max_length: int | None = None


@dataclass(frozen=True)
class Target:
    """What a writer may need beyond the entries: the file's language and name, the project's
    name, the language's display name, the revision date (``YYYY-MM-DD HH:MM+0000``: the
    export gives the file's last change in that language, so that it moves only with the
    file) and, for bilingual formats (XLIFF), the source language and its values by key."""

    language: str
    file_name: str = ""
    project_name: str = "Loko"
    language_name: str = ""
    revision_date: str = "1970-01-01 00:00+0000"
    source_language: str | None = None
    source_values: dict = field(default_factory=dict)


class FormatError(ValueError):
    """The bytes are not a valid file of the format; the message names the line when known."""

    def __init__(self, message: str, line: int | None = None):
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)
