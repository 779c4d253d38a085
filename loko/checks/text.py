"""Small helpers the checks share: a language code's base language, and the ICU hint."""

import re
from functools import lru_cache

from pyicumessageformat import Parser

# A value "looks like ICU" when it has an argument with a type: ``{count, plural, ...}``,
# ``{n, number}``, ``{when, date, short}`` ...
ICU_HINT = re.compile(r"\{\s*[\w.-]+\s*,\s*(?:plural|selectordinal|select|number|date|time)\b")


@lru_cache(maxsize=1024)
def base_language(code: str | None) -> str:
    """``pt-BR`` -> ``pt``, ``zh_Hant`` -> ``zh``; empty for None."""
    if not code:
        return ""
    return code.replace("_", "-").split("-", 1)[0].lower()


def looks_like_icu(text: str | None) -> bool:
    return bool(text) and "{" in text and ICU_HINT.search(text) is not None


def plural_word(count: int, word: str) -> str:
    return word if count == 1 else f"{word}s"


_ICU_PARSER = Parser({"require_other": False, "allow_tags": False})


@lru_cache(maxsize=8192)
def parse_icu(text: str) -> tuple[list | None, str | None]:
    """The ICU MessageFormat syntax tree of ``text`` and None, or None and the parser's error
    (``Expected , or } at position 12 but found "x"``)."""
    try:
        return _ICU_PARSER.parse(text), None
    except SyntaxError as error:
        return None, str(error) or "the message cannot be parsed"
