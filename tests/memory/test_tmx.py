"""TMX 1.4 read and written as plain units, and hostile XML refused (no app, no database)."""

import pytest

from loko.memory import tmx

HEADER = (
    '<header creationtool="t" creationtoolversion="1" datatype="plaintext" segtype="sentence" '
    'adminlang="en" srclang="{source}" o-tmf="t"/>'
)


def document(body: str, source: str = "en", doctype: str = "") -> bytes:
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n{doctype}<tmx version="1.4">'
        f"{HEADER.format(source=source)}<body>{body}</body></tmx>"
    ).encode()


def tu(*variants, source=None) -> str:
    attribute = f' srclang="{source}"' if source else ""
    return (
        f"<tu{attribute}>"
        + "".join(f'<tuv xml:lang="{language}"><seg>{t}</seg></tuv>' for language, t in variants)
        + "</tu>"
    )


def test_each_other_language_of_a_unit_is_a_pair_with_the_source():
    units = tmx.read(document(tu(("en", "Save"), ("de", "Speichern"), ("fr", "Enregistrer"))), 10)
    assert units == [
        tmx.Unit("en", "de", "Save", "Speichern"),
        tmx.Unit("en", "fr", "Save", "Enregistrer"),
    ]


def test_a_unit_s_own_source_language_wins_over_the_header_s():
    units = tmx.read(document(tu(("en", "Save"), ("de", "Speichern"), source="de")), 10)
    assert units == [tmx.Unit("de", "en", "Speichern", "Save")]


def test_any_source_takes_the_first_variant():
    units = tmx.read(document(tu(("de", "Speichern"), ("en", "Save")), source="*all*"), 10)
    assert units == [tmx.Unit("de", "en", "Speichern", "Save")]


def test_language_codes_are_made_canonical():
    units = tmx.read(document(tu(("EN-us", "Color"), ("pt_br", "Cor")), source="en-US"), 10)
    assert units == [tmx.Unit("en-US", "pt-BR", "Color", "Cor")]


def test_inline_markup_keeps_its_text():
    units = tmx.read(document(tu(("en", "Hello <ph>{name}</ph>!"), ("de", "Hallo <ph>{name}</ph>!"))), 10)
    assert units == [tmx.Unit("en", "de", "Hello {name}!", "Hallo {name}!")]


def test_a_document_type_declaration_without_entities_is_read():
    units = tmx.read(
        document(tu(("en", "a"), ("de", "b")), doctype='<!DOCTYPE tmx SYSTEM "tmx14.dtd">\n'), 10
    )
    assert len(units) == 1


def test_billion_laughs_is_refused():
    doctype = (
        '<!DOCTYPE tmx [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
        '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>\n'
    )
    with pytest.raises(tmx.TmxError, match="entity declarations are not allowed"):
        tmx.read(document(tu(("en", "&lol3;"), ("de", "x")), doctype=doctype), 10)


def test_an_external_entity_is_refused():
    doctype = '<!DOCTYPE tmx [<!ENTITY secret SYSTEM "file:///etc/passwd">]>\n'
    with pytest.raises(tmx.TmxError, match="not allowed"):
        tmx.read(document(tu(("en", "&secret;"), ("de", "x")), doctype=doctype), 10)


def test_not_xml_is_refused():
    with pytest.raises(tmx.TmxError, match="not well-formed XML"):
        tmx.read(b"<tmx><body>", 10)


def test_another_root_is_refused():
    with pytest.raises(tmx.TmxError, match="not <tmx>"):
        tmx.read(b"<xliff/>", 10)


def test_too_many_units_are_refused():
    with pytest.raises(tmx.TmxError, match="more than 1 translation pairs"):
        tmx.read(document(tu(("en", "a"), ("de", "b")) + tu(("en", "c"), ("de", "d"))), 1)


def test_an_unknown_language_code_is_refused():
    with pytest.raises(tmx.TmxError, match="not a language code"):
        tmx.read(document(tu(("en", "a"), ("not a code", "b"))), 10)


def test_what_is_written_reads_back_the_same():
    units = [("en", [("en", 'Fish & "chips" <b>'), ("de", "Fisch & Pommes"), ("fr", "Poisson")])]
    assert tmx.read(tmx.write(units, "en"), 10) == [
        tmx.Unit("en", "de", 'Fish & "chips" <b>', "Fisch & Pommes"),
        tmx.Unit("en", "fr", 'Fish & "chips" <b>', "Poisson"),
    ]
