"""A value identical to its source in another language: likely not translated yet.

Conservative: it stays quiet when the value's language is a variant of the source's (``en``
and ``en-GB``), and when the text legitimately stays the same: with placeholders, tags, URLs,
digits, punctuation and symbols taken away, 3 letters or less are left (``OK``, ``FAQ``,
``a < b``, ``{count}``), or a single word that looks like a name or a code (all capitals, an
inner capital as in ``GitHub`` or ``iPhone``, or digits as in ``MP3``). Any other identical
text is flagged, whitespace at the edges aside. No fix.
"""

import re
from functools import lru_cache

from loko.checks import Issue, Signal, Target
from loko.checks.placeholders import placeholders
from loko.checks.tags import TAG
from loko.checks.text import base_language
from loko.checks.urls import ADDRESS

CODE = "untranslated"
TITLE = "Same as the source"
SIGNAL = Signal(same_text=True)

_NOT_WORDS = re.compile(r"[\W\d_]+")


@lru_cache(maxsize=8192)
def _may_stay(source: str) -> bool:
    """Whether ``source`` is text that a translation legitimately keeps as it is."""
    text = (
        ADDRESS.sub(" ", TAG.sub(" ", source))
        if ("<" in source or "@" in source or "://" in source)
        else source
    )
    for token in placeholders(text)[0] or ():
        text = text.replace(token, " ")
    words = _NOT_WORDS.sub(" ", text).split()
    if sum(len(word) for word in words) <= 3:
        return True
    if len(words) > 1:
        return False
    word = words[0]
    original = next((token for token in text.split() if word in token), word)
    return (
        len(word) <= 3
        or word.isupper()
        or any(character.isupper() for character in word[1:])
        or any(character.isdigit() for character in original)
    )


def check(target: Target) -> list[Issue]:
    source, value = target.source, target.value
    if not source or not value or value.strip() != source.strip():
        return []
    language = base_language(target.language)
    source_language = base_language(target.source_language)
    if language == source_language or _may_stay(source):
        return []
    return [Issue(CODE, "The value is the same as the source; it may not be translated yet.")]
