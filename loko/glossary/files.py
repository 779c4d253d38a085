"""Glossary files: CSV and TBX, read into and written from plain entries (no database).

An entry is ``{"language", "term", "partOfSpeech", "note", "caseSensitive", "forbidden",
"translations": [{"language", "text", "forbidden"}]}``.

CSV: one row per translation (a term without translations on one row of its own), with the
header ``language,term,part_of_speech,note,case_sensitive,forbidden,translation_language,
translation,translation_forbidden``; the rows of a term repeat its columns, the first row's
win. Booleans are ``true``/``false`` (also ``yes``/``no``, ``1``/``0``, empty for false).

TBX: TBX-Basic (TBX v2, ``martif``/``termEntry``/``langSet``/``tig``/``term``) is written;
TBX v2 and TBX v3 (``tbx``/``conceptEntry``/``langSec``/``termSec``) are read, namespaces
ignored. In each entry the language set of the source language (``source_language``, else
the document's ``xml:lang``, else the entry's first) gives the term (its first term); the
others its translations. ``termNote type="partOfSpeech"``, ``note`` (or ``descrip``) and
``termNote type="administrativeStatus"`` (``forbidden``, ``deprecated``, ``superseded``: a
forbidden term) are read and written. Parsing refuses DTDs and entities (defusedxml, as the
XLIFF reader).
"""

import csv
import io

from loko.formats import FormatError
from loko.formats.xliff12 import escape_attribute, escape_text, parse

CSV_COLUMNS = (
    "language",
    "term",
    "part_of_speech",
    "note",
    "case_sensitive",
    "forbidden",
    "translation_language",
    "translation",
    "translation_forbidden",
)
TRUE = frozenset({"true", "yes", "1", "y"})
FALSE = frozenset({"false", "no", "0", "n", ""})
FORBIDDEN_STATUSES = ("forbidden", "deprecated", "superseded")
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
MEDIA_TYPES = {"csv": "text/csv; charset=utf-8", "tbx": "application/x-tbx+xml"}


def _boolean(text: str, column: str, line: int) -> bool:
    folded = text.strip().lower()
    if folded in TRUE:
        return True
    if folded in FALSE:
        return False
    raise FormatError(f"{column}: {text!r} is not true or false", line)


def _decoded(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise FormatError(f"not UTF-8 (byte {error.start})") from None


def read_csv(data: bytes, max_entries: int) -> list[dict]:
    """The entries of a glossary CSV file; FormatError naming the line."""
    reader = csv.reader(io.StringIO(_decoded(data), newline=""))
    try:
        header = next(reader, None)
    except csv.Error as error:
        raise FormatError(str(error), 1) from None
    if header is None:
        raise FormatError("the file is empty")
    header = [name.strip().lower() for name in header]
    missing = [name for name in ("language", "term") if name not in header]
    if missing:
        raise FormatError(f"the header lacks the column {missing[0]}", 1)
    unknown = [name for name in header if name not in CSV_COLUMNS]
    if unknown:
        raise FormatError(f"unknown column {unknown[0]!r}; the columns are {', '.join(CSV_COLUMNS)}", 1)
    entries: dict[tuple[str, str], dict] = {}
    try:
        for row in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if len(row) > len(header):
                raise FormatError(f"{len(row)} cells for {len(header)} columns", line)
            cells = dict(zip(header, row + [""] * (len(header) - len(row)), strict=True))
            key = (cells["language"].strip(), cells["term"])
            entry = entries.get(key)
            if entry is None:
                if len(entries) >= max_entries:
                    raise FormatError(f"more than {max_entries:,} terms", line)
                entry = entries[key] = {
                    "language": key[0],
                    "term": key[1],
                    "partOfSpeech": cells.get("part_of_speech", "").strip() or None,
                    "note": cells.get("note", ""),
                    "caseSensitive": _boolean(cells.get("case_sensitive", ""), "case_sensitive", line),
                    "forbidden": _boolean(cells.get("forbidden", ""), "forbidden", line),
                    "translations": [],
                    "line": line,
                }
            language = cells.get("translation_language", "").strip()
            text = cells.get("translation", "")
            if language or text:
                entry["translations"].append(
                    {
                        "language": language,
                        "text": text,
                        "forbidden": _boolean(
                            cells.get("translation_forbidden", ""), "translation_forbidden", line
                        ),
                    }
                )
    except csv.Error as error:
        raise FormatError(str(error), reader.line_num) from None
    return list(entries.values())


def _csv_cell(text: str) -> str:
    # A cell a spreadsheet would run as a formula is written with a leading apostrophe.
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def write_csv(entries: list[dict]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for entry in entries:
        head = [
            entry["language"],
            entry["term"],
            entry["partOfSpeech"] or "",
            entry["note"],
            "true" if entry["caseSensitive"] else "false",
            "true" if entry["forbidden"] else "false",
        ]
        for translation in entry["translations"] or [None]:
            tail = (
                [
                    translation["language"],
                    translation["text"],
                    "true" if translation["forbidden"] else "false",
                ]
                if translation
                else ["", "", ""]
            )
            writer.writerow([_csv_cell(cell) for cell in head + tail])
    return out.getvalue().encode("utf-8")


def _local(tag) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _text(element) -> str:
    return "".join(element.itertext()).strip()


def _children(element, *names):
    return [child for child in element if _local(child.tag) in names]


def _term_of(term_group, lines) -> dict | None:
    """``{text, partOfSpeech, forbidden, note, caseSensitive}`` of a ``tig``/``termSec``."""
    terms = _children(term_group, "term")
    if not terms:
        return None
    found = {
        "text": _text(terms[0]),
        "partOfSpeech": None,
        "forbidden": False,
        "note": "",
        "caseSensitive": False,
    }
    for child in term_group.iter():
        name, kind = _local(child.tag), child.get("type", "")
        if name == "termNote" and kind == "partOfSpeech":
            found["partOfSpeech"] = _text(child) or None
        elif name == "termNote" and kind == "administrativeStatus":
            found["forbidden"] = _text(child).lower().startswith(FORBIDDEN_STATUSES)
        elif name == "termNote" and kind == "x-caseSensitive":
            found["caseSensitive"] = _text(child).lower() in TRUE
        elif name == "note" and not found["note"]:
            found["note"] = _text(child)
    return found


def read_tbx(data: bytes, max_entries: int, source_language: str | None = None) -> list[dict]:
    """The entries of a TBX file; FormatError naming the line."""
    root, lines = parse(data)
    if _local(root.tag) not in ("martif", "tbx"):
        raise FormatError(
            f"the root element is not TBX's <martif> or <tbx> but {root.tag!r}", lines[id(root)]
        )
    source_language = source_language or root.get(XML_LANG)
    entries = []
    for concept in root.iter():
        if _local(concept.tag) not in ("termEntry", "conceptEntry"):
            continue
        line = lines[id(concept)]
        if len(entries) >= max_entries:
            raise FormatError(f"more than {max_entries:,} terms", line)
        language_sets = _children(concept, "langSet", "langSec")
        if not language_sets:
            continue
        for language_set in language_sets:
            if not language_set.get(XML_LANG):
                raise FormatError("a language set without xml:lang", lines[id(language_set)])
        source = next(
            (
                s
                for s in language_sets
                if source_language and s.get(XML_LANG).lower() == source_language.lower()
            ),
            language_sets[0] if not source_language else None,
        )
        if source is None:
            continue  # an entry without the source language has no term to find
        groups = _children(source, "tig", "termSec", "ntig")
        term = _term_of(groups[0], lines) if groups else None
        if term is None:
            raise FormatError("a language set without a term", lines[id(source)])
        entry_note = next((_text(child) for child in _children(concept, "note", "descripGrp", "descrip")), "")
        translations = []
        for language_set in language_sets:
            if language_set is source:
                continue
            for group in _children(language_set, "tig", "termSec", "ntig"):
                found = _term_of(group, lines)
                if found is not None:
                    translations.append(
                        {
                            "language": language_set.get(XML_LANG),
                            "text": found["text"],
                            "forbidden": found["forbidden"],
                        }
                    )
        entries.append(
            {
                "language": source.get(XML_LANG),
                "term": term["text"],
                "partOfSpeech": term["partOfSpeech"],
                "note": term["note"] or entry_note,
                "caseSensitive": term["caseSensitive"],
                "forbidden": term["forbidden"],
                "translations": translations,
                "line": line,
            }
        )
    return entries


def _tig(
    text: str, part_of_speech: str | None, forbidden: bool, case_sensitive: bool, note: str
) -> list[str]:
    lines = ["      <tig>", f"        <term>{escape_text(text)}</term>"]
    if part_of_speech:
        lines.append(f'        <termNote type="partOfSpeech">{escape_text(part_of_speech)}</termNote>')
    status = "forbidden-admn-sts" if forbidden else "preferredTerm-admn-sts"
    lines.append(f'        <termNote type="administrativeStatus">{status}</termNote>')
    if case_sensitive:
        lines.append('        <termNote type="x-caseSensitive">true</termNote>')
    if note:
        lines.append(f"        <note>{escape_text(note)}</note>")
    lines.append("      </tig>")
    return lines


def write_tbx(entries: list[dict], source_language: str = "en") -> bytes:
    """TBX-Basic (TBX v2) of ``entries``."""
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<martif type="TBX-Basic" xml:lang="{escape_attribute(source_language)}">',
        "  <martifHeader>",
        "    <fileDesc><sourceDesc><p>Loko glossary</p></sourceDesc></fileDesc>",
        "  </martifHeader>",
        "  <text>",
        "    <body>",
    ]
    for entry in entries:
        out.append(
            f'  <termEntry id="{escape_attribute(entry["id"])}">' if entry.get("id") else "  <termEntry>"
        )
        out.append(f'    <langSet xml:lang="{escape_attribute(entry["language"])}">')
        out += _tig(
            entry["term"], entry["partOfSpeech"], entry["forbidden"], entry["caseSensitive"], entry["note"]
        )
        out.append("    </langSet>")
        by_language: dict[str, list[dict]] = {}
        for translation in entry["translations"]:
            by_language.setdefault(translation["language"], []).append(translation)
        for language, translations in by_language.items():
            out.append(f'    <langSet xml:lang="{escape_attribute(language)}">')
            for translation in translations:
                out += _tig(translation["text"], entry["partOfSpeech"], translation["forbidden"], False, "")
            out.append("    </langSet>")
        out.append("  </termEntry>")
    out += ["    </body>", "  </text>", "</martif>", ""]
    return "\n".join(out).encode("utf-8")
