"""The pages' scripts show no English they do not mark: every string literal of
loko/web/static/*.js that reads as words (two or more, once the template's ``${...}`` are
taken out, or one beside a template's value) is the message of a ``_()`` or ``ngettext()``
call, or a class list, a selector, a constant or the like that nobody reads."""

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "loko" / "web" / "static"
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`')
WORDS = re.compile(r"[A-Za-z]{2,} [a-z]{2,}")
# A template literal that puts a word beside a value (`error ${status}`) is text too.
LETTERS = re.compile(r"(?:^|\s)[A-Za-z]{3,}(?=\s|$)")
# What stands before a literal (the texts before it emptied) when it is a message, or when it
# is no text for people: a class list, a selector.
MARKED = re.compile(r'(?:\b_|\bngettext)\(\s*$|\bngettext\(\s*"",\s*$')
NOT_TEXT = re.compile(
    r"(?:className\s*\+?=[^;\n]*|setAttribute\(\"class\",\s*|classList\.\w+\(\s*"
    r"|querySelector(?:All)?\(\s*|closest\(\s*|matches\(\s*|\bbutton\(_\(\"[^\"]*\"\),\s*"
    r"|\bconst [A-Z][A-Z_]* = )$"
)
COMMENT = re.compile(r"^[ \t]*//.*$", re.MULTILINE)


def unmarked() -> list[str]:
    found = []
    for path in sorted(STATIC.glob("*.js")):
        source = COMMENT.sub("", path.read_text(encoding="utf-8"))
        emptied, position = [], 0
        for literal in LITERAL.finditer(source):
            emptied.append(source[position : literal.start()])
            position = literal.end()
            text = literal.group(1) if literal.group(1) is not None else literal.group(2)
            before = "".join(emptied)[-300:]
            bare = re.sub(r"\$\{[^}]*\}", " ", text)
            templated = literal.group(2) is not None and "${" in text and LETTERS.search(bare)
            if text == "use strict" or not (WORDS.search(bare) or templated):
                emptied.append(literal.group(0))
                continue
            emptied.append(literal.group(0)[0] * 2)
            if not MARKED.search(before) and not NOT_TEXT.search(before):
                found.append(f"{path.name}:{source.count(chr(10), 0, literal.start()) + 1}: {text}")
    return found


def test_every_text_the_scripts_show_is_marked_for_translation():
    assert unmarked() == []


def test_no_message_is_marked_inside_a_template_literal():
    """The catalogs' extraction does not read a call inside a template literal's ``${...}``,
    so a message marked there would never be translated."""
    inside = [
        f"{path.name}: {found.group(0)}"
        for path in sorted(STATIC.glob("*.js"))
        for found in re.finditer(r"\$\{\s*(?:_|ngettext)\([^`]*", path.read_text(encoding="utf-8"))
    ]
    assert inside == []
