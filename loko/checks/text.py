"""Small helpers the checks share: a language code's base language, and whether a text looks
like ICU MessageFormat."""

import re
from functools import lru_cache

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
    """``word`` for one, its English plural for more (``forms``, ``addresses``)."""
    if count == 1:
        return word
    return f"{word}es" if word.endswith("s") else f"{word}s"
