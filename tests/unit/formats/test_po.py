"""The PO format: reading, writing, and the round trip of a canonical file.

A canonical file is one the writer itself produces: Loko's header for the target (what
``write([], target)`` gives), then the entries in polib's layout. Reading such a file and
writing the entries back gives the same bytes. ``msgfmt --check`` is the reference for
validity; those tests skip when GNU gettext is not installed.
"""

import gettext
import re
import shutil
import subprocess

import orjson
import pytest
from babel.messages.plurals import get_plural

from loko.exports.writers import po_bytes
from loko.formats import Entry, FormatError, Target, plurals, po

MSGFMT = shutil.which("msgfmt")
needs_msgfmt = pytest.mark.skipif(
    MSGFMT is None,
    reason="GNU gettext's msgfmt is not installed (Debian: apt-get install gettext, or `make system-deps`)",
)

REVISION = "2024-05-01 12:00+0000"
NAMES = {"ja": "Japanese", "en": "English", "pl": "Polish", "ar": "Arabic"}

# Entries every language shares: placeholders, context, comments, flags, escapes, empty values,
# Unicode, line separators, the writer's fuzzy note and a translator's own fuzzy flag.
COMMON = """
msgid "greeting"
msgstr "Hello"

# Shown on the dashboard
#
# after an empty line
#. The user's display name
#: src/app.py:12 src/other.py
#, python-format
msgid "%(name)s sent %(count)d files"
msgstr "%(name)s a envoyé %(count)d fichiers"

#, c-format
msgid "%s of %d"
msgstr "%s sur %d"

msgid "Hello {name}"
msgstr "Bonjour {name}"

msgctxt "menu"
msgid "Open"
msgstr "Ouvrir"

msgctxt "verb"
msgid "Open"
msgstr "Ouvre"

msgctxt ""
msgid "Open"
msgstr "Ouvert"

msgctxt "a|b"
msgid "pipe|key"
msgstr "tube"

msgid "escapes"
msgstr "say \\"hi\\"\\tC:\\\\path\\\\"

msgid "two lines"
msgstr ""
"first line\\n"
"second line"

msgid "separators"
msgstr ""
"line\u2028"
"para\u2029"
"next\u0085"
"end"

msgid "untranslated"
msgstr ""

msgid "unicode 日本語 😀"
msgstr "ünïcödé 日本語 😀 \u05e9\u05dc\u05d5\u05dd"

# Leading or trailing newlines differ from the source key.
#, fuzzy
msgid "leading"
msgstr ""
"\\n"
"starts with a newline"

#, fuzzy, python-format
msgid "draft %(n)s"
msgstr "brouillon %(n)s"

msgid "icu in msgstr"
msgstr "{count, plural, one {# item} other {# items}}"
"""
QUOTED = """
msgid "quoted ' and {"
msgid_plural "quoted ' and { plural"
"""


def _arabic_forms(forms: dict[str, str]) -> str:
    return "".join(
        f'msgstr[{n}] "{forms[category]}"\n' for n, category in enumerate(plurals.gettext_categories("ar"))
    )


PLURALS = {
    "ja": QUOTED
    + """\
msgstr[0] "' と {"

msgid "%d file"
msgid_plural "%d files"
msgstr[0] "%d 個のファイル"

msgid "not yet"
msgid_plural "not yets"
msgstr[0] ""
""",
    "en": QUOTED
    + """\
msgstr[0] "one's {"
msgstr[1] "many's {"

msgid "%d file"
msgid_plural "%d files"
msgstr[0] "%d file"
msgstr[1] "%d files"

msgid "not yet"
msgid_plural "not yets"
msgstr[0] ""
msgstr[1] ""
""",
    "pl": QUOTED
    + """\
msgstr[0] "jeden '"
msgstr[1] "kilka {"
msgstr[2] "wiele }"

msgid "%d file"
msgid_plural "%d files"
msgstr[0] "%d plik"
msgstr[1] "%d pliki"
msgstr[2] "%d plików"

msgid "not yet"
msgid_plural "not yets"
msgstr[0] ""
msgstr[1] ""
msgstr[2] ""
""",
    # Arabic's msgstr[n] order is the installed CLDR rule's (Babel before 2.18 put "other"
    # before "many"), so its lines are written in that order.
    "ar": lambda: (
        QUOTED
        + _arabic_forms(
            {
                "zero": "صفر '",
                "one": "واحد {",
                "two": "اثنان",
                "few": "قليل",
                "many": "كثير",
                "other": "آخر }",
            }
        )
        + """
msgid "%d file"
msgid_plural "%d files"
"""
        + _arabic_forms(
            {
                "zero": "لا ملفات %d",
                "one": "ملف %d",
                "two": "ملفان %d",
                "few": "%d ملفات",
                "many": "%d ملفًا",
                "other": "%d ملف",
            }
        )
        + """
msgid "not yet"
msgid_plural "not yets"
"""
        + _arabic_forms(dict.fromkeys(plurals.CATEGORY_ORDER, ""))
    ),
}
LANGUAGES = tuple(PLURALS)


def _target(language: str) -> Target:
    return Target(
        language=language, project_name="Demo", language_name=NAMES[language], revision_date=REVISION
    )


def _canonical(language: str) -> bytes:
    body = PLURALS[language]
    return po.write([], _target(language)) + (COMMON + (body() if callable(body) else body)).encode("utf-8")


def _entry(entries: list[Entry], key: str) -> Entry:
    return next(entry for entry in entries if entry.key == key)


def _msgfmt(data: bytes, tmp_path) -> subprocess.CompletedProcess:
    path = tmp_path / "messages.po"
    path.write_bytes(data)
    command = [MSGFMT, "--check", "-o", str(tmp_path / "messages.mo"), str(path)]
    return subprocess.run(command, capture_output=True, text=True, check=False)


# Round trip and validity


@pytest.mark.parametrize("language", LANGUAGES)
def test_canonical_file_round_trips_byte_identical(language):
    data = _canonical(language)
    assert po.write(po.read(data, language), _target(language)) == data


@needs_msgfmt
@pytest.mark.parametrize("language", LANGUAGES)
def test_written_file_passes_msgfmt_check(language, tmp_path):
    data = po.write(po.read(_canonical(language), language), _target(language))
    result = _msgfmt(data, tmp_path)
    assert result.returncode == 0, result.stderr


@needs_msgfmt
@pytest.mark.parametrize("language", LANGUAGES)
def test_entries_from_other_formats_pass_msgfmt_check(language, tmp_path):
    entries = [
        Entry("files", "{count, plural, =0 {none} one {# file} other {# files}}"),
        Entry("lead", "{count, plural, one {\none} other {\nmany}}"),
        Entry("ctx|key", "value", comment="note\r\nwith\x07controls", context="ctx"),
        Entry("plain", 'say "hi"\n'),
        Entry("none", None),
    ]
    result = _msgfmt(po.write(entries, _target(language)), tmp_path)
    assert result.returncode == 0, result.stderr


# Writing


def test_plain_entries_are_written_as_the_export_writes_them():
    pairs = [("a", "A"), ("b", None), ("c", "\nC"), ("d", 'say "hi"\n\tnow'), ("e", "line\u2028para")]
    written = po.write([Entry(key, value) for key, value in pairs], _target("pl"))
    assert written == po_bytes("pl", "Polish", "Demo", REVISION, pairs)


def test_header_names_the_language_when_the_target_has_no_language_name():
    data = po.write([], Target(language="de", project_name="Demo", revision_date=REVISION))
    assert data.startswith(b"# de translations of Demo.\n")


def test_plural_without_msgid_plural_uses_the_msgid():
    data = po.write([Entry("%d file", "{count, plural, one {%d plik} other {%d pliku}}")], _target("pl"))
    forms = b'msgstr[0] "%d plik"\nmsgstr[1] "%d pliku"\nmsgstr[2] "%d pliku"\n'
    assert data.endswith(b'msgid "%d file"\nmsgid_plural "%d file"\n' + forms)


def test_plural_forms_gettext_cannot_hold_are_left_out():
    data = po.write([Entry("n", "{count, plural, =0 {none} one {one} other {more}}")], _target("en"))
    assert data.endswith(b'msgid "n"\nmsgid_plural "n"\nmsgstr[0] "one"\nmsgstr[1] "more"\n')


def test_plural_key_with_a_plain_value_gets_it_in_every_form():
    entry = Entry("n", "same", meta={"msgid_plural": "ns"})
    assert po.write([entry], _target("en")).endswith(b'msgstr[0] "same"\nmsgstr[1] "same"\n')


def test_plural_whose_newlines_disagree_with_the_msgid_is_marked_fuzzy():
    data = po.write([Entry("n", "{count, plural, one {one} other {more\n}}")], _target("en"))
    assert f'# {po.NOTE}\n#, fuzzy\nmsgid "n"\n'.encode() in data


def test_writer_takes_the_msgid_from_the_key_less_the_context():
    data = po.write([Entry("menu|Open", "Ouvrir", context="menu")], _target("en"))
    assert data.endswith(b'msgctxt "menu"\nmsgid "Open"\nmsgstr "Ouvrir"\n')


def test_writer_prefers_the_msgid_kept_in_meta():
    data = po.write([Entry("k", "v", context="c", meta={"msgid": "Open"})], _target("en"))
    assert data.endswith(b'msgctxt "c"\nmsgid "Open"\nmsgstr "v"\n')


def test_meta_stored_with_sorted_keys_writes_the_same_bytes():
    entries = po.read(_canonical("ar"), "ar")
    sort = orjson.OPT_SORT_KEYS
    stored = [
        Entry(
            entry.key,
            entry.value,
            entry.comment,
            entry.context,
            orjson.loads(orjson.dumps(entry.meta, option=sort)),
        )
        for entry in entries
    ]
    assert po.write(stored, _target("ar")) == po.write(entries, _target("ar"))


# Reading


def test_header_is_not_an_entry():
    assert "" not in [entry.key for entry in po.read(_canonical("en"), "en")]


def test_entry_with_context_has_the_context_and_msgid_in_its_key():
    entry = _entry(po.read(_canonical("en"), "en"), "menu|Open")
    assert (entry.context, entry.meta, entry.value) == ("menu", {"msgid": "Open"}, "Ouvrir")


def test_empty_context_differs_from_no_context():
    entry = _entry(po.read(_canonical("en"), "en"), "|Open")
    assert (entry.context, entry.value) == ("", "Ouvert")


def test_empty_msgstr_reads_as_none():
    assert _entry(po.read(_canonical("en"), "en"), "untranslated").value is None


def test_untranslated_plural_reads_as_none():
    entry = _entry(po.read(_canonical("pl"), "pl"), "not yet")
    assert (entry.value, entry.meta) == (None, {"msgid_plural": "not yets"})


def test_comments_flags_and_references_are_kept():
    entry = _entry(po.read(_canonical("en"), "en"), "%(name)s sent %(count)d files")
    assert entry.comment == "Shown on the dashboard\n\nafter an empty line"
    assert entry.meta == {
        "flags": ["python-format"],
        "extracted": "The user's display name",
        "references": ["src/app.py:12", "src/other.py"],
    }


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("ja", "{count, plural, other {%d 個のファイル}}"),
        ("en", "{count, plural, one {%d file} other {%d files}}"),
        ("pl", "{count, plural, one {%d plik} few {%d pliki} many {%d plików} other {%d plików}}"),
        (
            "ar",
            "{count, plural, zero {لا ملفات %d} one {ملف %d} two {ملفان %d} few {%d ملفات} "
            "many {%d ملفًا} other {%d ملف}}",
        ),
    ],
)
def test_plural_forms_read_as_one_icu_message_by_the_language_rule(language, expected):
    assert _entry(po.read(_canonical(language), language), "%d file").value == expected


def test_singular_msgstr_that_is_an_icu_plural_stays_singular():
    entry = _entry(po.read(_canonical("en"), "en"), "icu in msgstr")
    assert entry.meta == {"singular": True}
    assert po.write([entry], _target("en")).endswith(
        b'msgid "icu in msgstr"\nmsgstr "{count, plural, one {# item} other {# items}}"\n'
    )


def test_writers_fuzzy_note_is_neither_comment_nor_flag():
    entry = _entry(po.read(_canonical("en"), "en"), "leading")
    assert (entry.value, entry.comment, entry.meta) == ("\nstarts with a newline", None, None)


def test_translators_fuzzy_flag_is_kept():
    assert _entry(po.read(_canonical("en"), "en"), "draft %(n)s").meta == {
        "flags": ["fuzzy", "python-format"]
    }


def test_obsolete_entries_are_skipped():
    data = b'msgid "a"\nmsgstr "A"\n\n#~ msgid "old"\n#~ msgstr "Alt"\n'
    assert [entry.key for entry in po.read(data, "en")] == ["a"]


def test_non_canonical_file_is_read():
    data = (
        b"# Old header comment\n"
        b'msgid ""\n'
        b'msgstr ""\n'
        b'"Project-Id-Version: other 1.0\\n"\n'
        b'"Content-Type: text/plain; charset=ISO-8859-1\\n"\n'
        b'"Plural-Forms: nplurals=2; plural=n != 1;\\n"\n'
        b"\r\n"
        b"#  two spaces\r\n"
        b"#: a.c:1\r\n"
        b"#: b.c:2\r\n"
        b'msgid ""\r\n'
        b'"a wrapped "\r\n'
        b'"msgid"\r\n'
        b'msgstr "caf\xe9 "\r\n'
        b'       "cr\xe8me"\r\n'
        b"\r\n"
        b'msgctxt ""\r\n'
        b'"ctx"\r\n'
        b'msgid "k"\r\n'
        b'msgid_plural "ks"\r\n'
        b'msgstr[1] "many"\r\n'
        b'msgstr[0] "one"\r\n'
    )
    assert po.read(data, "en") == [
        Entry(
            "a wrapped msgid", "café crème", comment=" two spaces", meta={"references": ["a.c:1", "b.c:2"]}
        ),
        Entry(
            "ctx|k",
            "{count, plural, one {one} other {many}}",
            context="ctx",
            meta={"msgid_plural": "ks", "msgid": "k"},
        ),
    ]


def _plural_file(plural_forms: str, forms: list[str]) -> bytes:
    header = f'msgid ""\nmsgstr ""\n"Plural-Forms: {plural_forms}\\n"\n\nmsgid "f"\nmsgid_plural "fs"\n'
    return (header + "".join(f'msgstr[{n}] "{form}"\n' for n, form in enumerate(forms))).encode()


def test_forms_are_read_by_the_files_own_plural_forms():
    usual_arabic = (
        "nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5;"
    )
    [entry] = po.read(_plural_file(usual_arabic, ["z", "o", "t", "f", "m", "x"]), "ar")
    assert entry.value == "{count, plural, zero {z} one {o} two {t} few {f} many {m} other {x}}"


def test_plural_forms_gettext_cannot_evaluate_give_way_to_the_language_rule():
    [entry] = po.read(_plural_file("nplurals=INTEGER; plural=EXPRESSION;", ["o", "x"]), "en")
    assert entry.value == "{count, plural, one {o} other {x}}"


def test_first_entry_of_a_file_without_header_keeps_its_comment():
    entries = po.read(b'# translator note\nmsgid "a"\nmsgstr "A"\n', "en")
    assert entries == [Entry("a", "A", comment="translator note")]


def test_utf8_byte_order_mark_is_ignored():
    assert po.read(b'\xef\xbb\xbfmsgid "a"\nmsgstr "A"\n', "en") == [Entry("a", "A")]


def test_text_that_names_an_existing_file_is_not_read_as_a_path(tmp_path):
    path = tmp_path / "other.po"
    path.write_bytes(b'msgid "secret"\nmsgstr "S"\n')
    with pytest.raises(FormatError):
        po.read(str(path).encode(), "en")


# Refusals


@pytest.mark.parametrize(
    ("data", "line", "message"),
    [
        (b'msgid "a"\nmsgstr "b\n', 2, "double quotes"),
        (b'msgid "a"\nmsgstr "b"c"\n', 2, "double quotes"),
        (b'msgid "a"\nmsgstr "b"\nhello\n', 3, "unexpected text"),
        (b'msgid "a"\nmsgstr "\\a"\n', 2, "unsupported escape"),
        (b'msgid "a"\n\nmsgid "b"\nmsgstr ""\n', 1, "msgid without msgstr"),
        (b'msgid "a"\nmsgstr "b"\n\nmsgid "c"\n', 4, "msgid without msgstr"),
        (b'\nmsgstr "b"\nmsgid "a"\nmsgstr "c"\n', 2, "syntax error"),
        (b'msgid "a"\nmsgstr[0] "b"\n', 1, "msgid_plural"),
        (b'msgid "a"\nmsgstr "A"\n\nmsgid "b"\nmsgid_plural "bs"\nmsgstr "B"\n', 4, "msgstr[0]"),
    ],
)
def test_broken_po_raises_format_error_naming_the_line(data, line, message):
    with pytest.raises(FormatError, match=rf"^line {line}: .*{re.escape(message)}") as raised:
        po.read(data, "en")
    assert raised.value.line == line


def test_more_forms_than_the_language_has_are_refused():
    data = b'msgid "a"\nmsgstr "A"\n\nmsgid "f"\nmsgid_plural "fs"\nmsgstr[0] "x"\nmsgstr[1] "y"\n'
    message = "line 4: msgstr[1] but the forms are msgstr[0] to msgstr[0]"
    with pytest.raises(FormatError, match=re.escape(message)):
        po.read(data, "ja")


def test_duplicate_key_is_refused_naming_both_lines():
    data = b'msgctxt "a"\nmsgid "b"\nmsgstr "1"\n\nmsgid "a|b"\nmsgstr "2"\n'
    with pytest.raises(FormatError, match=re.escape("line 5: the key 'a|b' is already used at line 1")):
        po.read(data, "en")


def test_bytes_outside_the_header_charset_are_refused_naming_the_line():
    data = (
        b'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr "caf\xe9"\n'
    )
    with pytest.raises(FormatError, match=r"^line 6: the bytes are not valid UTF-8$"):
        po.read(data, "en")


def test_unknown_charset_is_refused_naming_the_line():
    data = b'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=klingon\\n"\n'
    with pytest.raises(FormatError, match=r"^line 3: unknown charset 'klingon'$"):
        po.read(data, "en")


def test_arabic_forms_are_numbered_by_the_installed_gettext_rule():
    index_of = gettext.c2py(get_plural("ar").plural_expr)
    samples = {"zero": 0, "one": 1, "two": 2, "few": 3, "many": 11, "other": 100}
    assert {category: index_of(number) for category, number in samples.items()} == {
        category: plurals.gettext_categories("ar").index(category) for category in samples
    }


def test_a_languages_gettext_categories_are_worked_out_once_for_every_export():
    plurals.gettext_categories("ar")
    hits = plurals.gettext_categories.cache_info().hits
    plurals.gettext_categories("ar")
    assert plurals.gettext_categories.cache_info().hits == hits + 1
