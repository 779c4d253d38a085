"""Gettext PO: one ``msgid``/``msgstr`` pair per key, plural keys as ``msgid_plural`` with one
``msgstr[n]`` per form.

Keys and context: an entry without ``msgctxt`` has its msgid as key. An entry with a
``msgctxt`` has the key ``"{msgctxt}|{msgid}"``, its context in ``Entry.context`` and its
msgid in ``meta["msgid"]``; the writer takes the msgid from there (or from the key, less the
``"{context}|"`` prefix), so it never has to decode a key.

Plurals: the writer numbers the forms by the language's ``Plural-Forms`` rule, the one in the
header it writes. The reader maps ``msgstr[n]`` to CLDR categories by the file's own
``Plural-Forms`` (the language's rule when the file has none gettext can evaluate), so a file
that numbers the forms differently is read right; a form for ICU's required ``other`` that
gettext lacks (Polish, Russian) takes the last form's text.

Kept on a round trip: translator comments (``# ...``, ``Entry.comment``), the context, and in
``meta`` the flags (``#, fuzzy``), extracted comments (``#.``), references (``#:``),
``msgid_plural``, and ``singular`` for a one-form entry whose text happens to be an ICU plural
message (a catalog that stores ICU messages in ``msgstr``), so that it is not turned into
gettext plural forms. Not kept: the header (the writer writes Loko's own, from the target),
obsolete entries (``#~``, skipped), previous msgids (``#|``), and forms of an ICU plural that
gettext cannot hold (``=0``, ``=1``).

Reading refuses, naming the line: bytes that are not in the header's charset (UTF-8 when the
header names none), lines that are not PO syntax, a msgid without msgstr, escapes other than
``\\\\ \\" \\n \\t \\r \\v \\b \\f``, more ``msgstr[n]`` than there are plural forms, and
two entries with the same key.
"""

import codecs
import gettext
import re

import polib
from babel import Locale, UnknownLocaleError

from loko import loko_version
from loko.fields import CONTROL_CHARACTERS
from loko.formats import Entry, FormatError, Target, plurals

NAME = "po"
LABEL = "Gettext PO"
EXTENSION = ".po"
MEDIA_TYPE = "text/x-gettext-translation"
KEEPS = frozenset({"plurals", "comments", "context"})

CONTEXT_SEPARATOR = "|"


# Writing


def _one_line(text: str) -> str:
    return " ".join(CONTROL_CHARACTERS.sub(" ", text).split())


def _newlines_disagree(msgid: str, msgstr: str) -> bool:
    if not msgstr:
        return False
    return msgid.startswith("\n") != msgstr.startswith("\n") or msgid.endswith("\n") != msgstr.endswith("\n")


def po_escape(text: str) -> str:
    return (
        text.replace("\\", "\\\\")
        .replace("\t", "\\t")
        .replace("\r", "\\r")
        .replace("\n", "\\n")
        .replace("\v", "\\v")
        .replace("\b", "\\b")
        .replace("\f", "\\f")
        .replace('"', '\\"')
    )


# Characters that po_escape rewrites, or at which str.splitlines breaks a line.
PO_SPECIAL = re.compile('[\\\\"\t\r\n\v\b\f\x1c\x1d\x1e\x85\u2028\u2029]')


def _po_field(name: str, text: str) -> str:
    if PO_SPECIAL.search(text) is None:
        return f'{name} "{text}"'
    lines = text.splitlines(True)
    if len(lines) > 1:
        return f'{name} ""\n' + "\n".join(f'"{po_escape(line)}"' for line in lines)
    return f'{name} "{po_escape(text)}"'


NOTE = "Leading or trailing newlines differ from the source key."
FUZZY_NOTE = f"# {NOTE}\n#, fuzzy\n"


def _header(language: str, language_name: str, project_name: str, revision_date: str) -> str:
    project_name = _one_line(project_name)
    language_name = _one_line(language_name)
    metadata = (
        ("Project-Id-Version", project_name),
        ("PO-Revision-Date", revision_date),
        ("Last-Translator", "Loko"),
        ("Language-Team", language_name),
        ("Language", language),
        ("MIME-Version", "1.0"),
        ("Content-Type", "text/plain; charset=UTF-8"),
        ("Content-Transfer-Encoding", "8bit"),
        ("Plural-Forms", plurals.plural_forms(language)),
        ("X-Generator", f"Loko {loko_version()}"),
    )
    parts = [f'# {language_name} translations of {project_name}.\nmsgid ""\nmsgstr ""\n']
    parts += [f'"{po_escape(f"{name}: {value}")}\\n"\n' for name, value in metadata]
    return "".join(parts)


def po_bytes(language: str, language_name: str, project_name: str, revision_date: str, entries) -> bytes:
    """A gettext PO catalog; ``entries`` are ``(key, value or None)`` pairs in output order.

    The layout is polib's (unwrapped lines; multi-line strings split after each newline),
    written directly because the export writes millions of entries. gettext requires a
    translation to begin and end with a newline exactly when its msgid does; a value that
    does not is kept but marked fuzzy, so compilers skip it.
    """
    parts = [_header(language, language_name, project_name, revision_date)]
    for key, value in entries:
        value = value or ""
        note = FUZZY_NOTE if _newlines_disagree(key, value) else ""
        parts.append(f"\n{note}{_po_field('msgid', key)}\n{_po_field('msgstr', value)}\n")
    return "".join(parts).encode("utf-8")


def write(entries: list[Entry], target: Target) -> bytes:
    """The PO catalog of ``entries`` in the given order, with Loko's header for the target.

    An entry with neither comment, context nor meta, and whose value is not a plural, is
    written exactly as ``po_bytes`` writes it.
    """
    language_name = target.language_name or target.language
    parts = [_header(target.language, language_name, target.project_name, target.revision_date)]
    categories = plurals.gettext_categories(target.language)
    for entry in entries:
        value = entry.value or ""
        plain = entry.comment is None and entry.context is None and not entry.meta
        # The first test spares the export a call per entry: a plural message starts with "{".
        if plain and (value[:1] != "{" or plurals.split(value) is None):
            note = FUZZY_NOTE if _newlines_disagree(entry.key, value) else ""
            parts.append(f"\n{note}{_po_field('msgid', entry.key)}\n{_po_field('msgstr', value)}\n")
        else:
            parts.append(_entry_text(entry, categories))
    return "".join(parts).encode("utf-8")


def _msgid(entry: Entry, meta: dict) -> str:
    if "msgid" in meta:
        return meta["msgid"]
    prefix = f"{entry.context}{CONTEXT_SEPARATOR}"
    if entry.context is not None and entry.key.startswith(prefix):
        return entry.key[len(prefix) :]
    return entry.key


def _comment(marker: str, text: str) -> str:
    """One comment line. gettext joins a line that ends in a backslash with the next one, so
    such a line gets a trailing space, which readers strip."""
    text = CONTROL_CHARACTERS.sub(" ", text).rstrip()
    return f"{marker} {text} " if text.endswith("\\") else f"{marker} {text}" if text else marker


def _comments(marker: str, text: str | None) -> list[str]:
    """The comment lines of ``text``. Readers drop an empty ``#.`` line and empty ``#`` lines
    before the first text, so the writer leaves those out too."""
    lines = [_comment(marker, line) for line in re.split(r"\r\n|\r|\n", text or "")]
    if marker != "#":
        return [line for line in lines if line != marker]
    while lines and lines[0] == marker:
        del lines[0]
    return lines


def _entry_text(entry: Entry, categories: tuple[str, ...]) -> str:
    meta = entry.meta or {}
    msgid = _msgid(entry, meta)
    plural = None if meta.get("singular") else plurals.split(entry.value)
    if plural is None and "msgid_plural" not in meta:
        fields = [("msgstr", entry.value or "")]
        checked = [fields[0][1]]
    else:
        msgid_plural = meta.get("msgid_plural", msgid)
        if plural is None:
            # A plural key whose value is one text (or none): every form gets that text.
            forms = [entry.value or ""] * len(categories)
        else:
            forms = [plural.forms.get(category, plural.forms.get("other", "")) for category in categories]
        fields = [("msgid_plural", msgid_plural)] + [(f"msgstr[{n}]", form) for n, form in enumerate(forms)]
        checked = [msgid_plural, *forms]
    disagree = any(_newlines_disagree(msgid, text) for text in checked)

    lines = _comments("#", entry.comment)
    if disagree:
        lines.append(f"# {NOTE}")
    lines += _comments("#.", meta.get("extracted"))
    references = " ".join(filter(None, (_one_line(reference) for reference in meta.get("references", ()))))
    if references:
        lines.append(_comment("#:", references))
    flags = [flag for flag in (_one_line(flag).replace(",", " ") for flag in meta.get("flags", ())) if flag]
    if disagree:
        flags = ["fuzzy", *(flag for flag in flags if flag != "fuzzy")]
    if flags:
        lines.append(_comment("#,", ", ".join(flags)))
    if entry.context is not None:
        lines.append(_po_field("msgctxt", entry.context))
    lines.append(_po_field("msgid", msgid))
    lines += [_po_field(name, text) for name, text in fields]
    return "\n" + "\n".join(lines) + "\n"


# Reading

CHARSET = re.compile(rb'"Content-Type:[^"\n]*?charset=([A-Za-z0-9_.:-]+)')
LINE = re.compile(r'(?:(msgctxt|msgid_plural|msgid|msgstr(?:\[\d\])?)\s*)?(".*)')
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
ESCAPE = re.compile(r"\\(.)")
KNOWN_ESCAPES = frozenset('\\"ntrvbf')
PLURAL_FORMS = re.compile(r"nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*([^;]+)")
POLIB_LINE = re.compile(r"\(line (\d+)\)(?::\s*(.+))?")


def _line_of(data: bytes, position: int) -> int:
    return data.count(b"\n", 0, position) + 1


def _decode(data: bytes) -> str:
    """The text in the header's charset (UTF-8 when it names none, or the ``CHARSET``
    placeholder of a template); FormatError for an unknown charset or undecodable bytes."""
    data = data.removeprefix(codecs.BOM_UTF8)
    charset = "utf-8"
    match = CHARSET.search(data)
    if match is not None and match.group(1).upper() != b"CHARSET":
        charset = match.group(1).decode("ascii")
    try:
        return data.decode(charset)
    except LookupError:
        raise FormatError(f"unknown charset {charset!r}", line=_line_of(data, match.start())) from None
    except UnicodeDecodeError as error:
        raise FormatError(f"the bytes are not valid {charset}", line=_line_of(data, error.start)) from None


def _check_syntax(lines: list[str]) -> None:
    """Refuse what polib would let through: stray text, unterminated strings, escapes it would
    keep as two characters, and a msgid without its msgstr."""
    msgid_line = None  # the line of a msgid still waiting for its msgstr
    for number, line in enumerate(lines, start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        match = LINE.fullmatch(line)
        if match is None:
            expected = "msgctxt, msgid, msgid_plural, msgstr or a quoted string"
            raise FormatError(f"unexpected text; expected {expected}", line=number)
        keyword, string = match.groups()
        if STRING.fullmatch(string) is None:
            raise FormatError('a string is one pair of double quotes, inner quotes written \\"', line=number)
        for escape in ESCAPE.finditer(string[1:-1]):
            if escape.group(1) not in KNOWN_ESCAPES:
                raise FormatError(f"unsupported escape sequence \\{escape.group(1)}", line=number)
        if keyword in ("msgctxt", "msgid") and msgid_line is not None:
            raise FormatError("msgid without msgstr", line=msgid_line)
        if keyword == "msgid":
            msgid_line = number
        elif keyword and keyword.startswith("msgstr"):
            msgid_line = None
    if msgid_line is not None:
        raise FormatError("msgid without msgstr", line=msgid_line)


def _parse(lines: list[str]) -> polib.POFile:
    """polib's parser over the given lines. ``polib.pofile`` would read a file when the text
    happens to be an existing path, and splits lines with ``str.splitlines``, which also breaks
    at U+2028 and U+0085 inside strings; gettext breaks lines only at newlines."""
    parser = polib._POFileParser("", encoding="utf-8")
    parser.fhandle = lines
    try:
        return parser.parse()
    except (OSError, ValueError, KeyError, IndexError) as error:
        match = POLIB_LINE.search(str(error))
        if match is None:
            raise FormatError(f"not a PO file: {error}") from None
        raise FormatError(match.group(2) or "syntax error", line=int(match.group(1))) from None


def _msgstr_categories(catalog: polib.POFile, language: str) -> tuple[str, ...]:
    """The CLDR category of each ``msgstr[n]``: by the file's own ``Plural-Forms`` when gettext
    can evaluate it (files from other tools may number the forms differently, as Arabic's
    usual rule does), else by the language's rule, which the writer uses."""
    categories = plurals.gettext_categories(language)
    match = PLURAL_FORMS.search(catalog.metadata.get("Plural-Forms", ""))
    try:
        locale = Locale.parse(language.replace("-", "_"))
        index_of = gettext.c2py(match.group(2)) if match else None
        if index_of is None or int(match.group(1)) > len(plurals.CATEGORY_ORDER):
            return categories
        found: dict[int, str] = {}
        for number in range(0, 1200):
            found.setdefault(index_of(number), locale.plural_form(number))
    except (UnknownLocaleError, ValueError, ArithmeticError):
        return categories
    return tuple(found.get(index, "other") for index in range(int(match.group(1))))


def _without_note(comment: str) -> tuple[str | None, bool]:
    """The translator comment without the writer's note on newlines, and whether it had it."""
    lines = comment.split("\n") if comment else []
    kept = [line for line in lines if line != NOTE]
    return ("\n".join(kept) or None), len(kept) != len(lines)


def _first_line(lines: list[str]) -> int:
    return next((number for number, line in enumerate(lines, start=1) if line.strip()), 1)


def _entry(item: polib.POEntry, categories: tuple[str, ...], line: int) -> Entry:
    meta: dict = {}
    comment, had_note = _without_note(item.tcomment)
    flags = list(item.flags)
    if had_note and "fuzzy" in flags:
        # The writer's own fuzzy mark, added again on writing when still due.
        flags.remove("fuzzy")
    if flags:
        meta["flags"] = flags
    if item.comment:
        meta["extracted"] = item.comment
    if item.occurrences:
        meta["references"] = [f"{path}:{number}" if number else path for path, number in item.occurrences]

    if item.msgstr_plural or item.msgid_plural:
        if not item.msgstr_plural:
            raise FormatError("an entry with msgid_plural needs msgstr[0], msgstr[1], ...", line=line)
        if not item.msgid_plural:
            raise FormatError("msgstr[n] needs a msgid_plural", line=line)
        highest, last = max(item.msgstr_plural), len(categories) - 1
        if highest > last:
            raise FormatError(f"msgstr[{highest}] but the forms are msgstr[0] to msgstr[{last}]", line=line)
        meta["msgid_plural"] = item.msgid_plural
        texts = [item.msgstr_plural.get(n, "") for n in range(len(categories))]
        forms: dict[str, str] = {}
        for category, text in zip(categories, texts, strict=True):
            forms.setdefault(category, text)
        # ICU requires "other"; where gettext has no such form (Polish, Russian: CLDR's "other"
        # is for fractions) it takes the last form's text, and the writer leaves it out again.
        forms.setdefault("other", texts[-1])
        value = plurals.join(forms) if any(texts) else None
    else:
        value = item.msgstr or None
        if plurals.split(value) is not None:
            meta["singular"] = True

    key = item.msgid
    if item.msgctxt is not None:
        key = f"{item.msgctxt}{CONTEXT_SEPARATOR}{item.msgid}"
        meta["msgid"] = item.msgid
    return Entry(key=key, value=value, comment=comment, context=item.msgctxt, meta=meta or None)


def read(data: bytes, language: str) -> list[Entry]:
    """The entries of a PO file, in file order; the header and obsolete entries are not
    entries. FormatError naming the line for what gettext would refuse (see the module)."""
    lines = _decode(data).replace("\r\n", "\n").split("\n")
    _check_syntax(lines)
    catalog = _parse(lines)
    categories = _msgstr_categories(catalog, language)
    entries, lines_by_key = [], {}
    for item in catalog:
        if item.obsolete:
            continue
        line = item.linenum
        if line == 0:
            # The file's first entry, which is not the header: polib numbers it 0 and takes its
            # leading translator comments for the file's.
            line = _first_line(lines)
            item.tcomment = "\n".join(text for text in (catalog.header, item.tcomment) if text)
        entry = _entry(item, categories, line)
        if entry.key in lines_by_key:
            first = lines_by_key[entry.key]
            raise FormatError(f"the key {entry.key!r} is already used at line {first}", line=line)
        lines_by_key[entry.key] = line
        entries.append(entry)
    return entries
