"""The source's URLs (``http``, ``https``, ``ftp``, ``mailto:``) and e-mail addresses appear
unchanged in the value. A URL's trailing sentence punctuation (``.``, ``,``, ``)`` ...) is not
part of it. Extra URLs in the value are not flagged (a translation may link a local page).
No fix: where the address goes in the sentence is the translator's."""

import re
from functools import lru_cache

from loko.checks import Issue, Signal, Target
from loko.checks.text import plural_word

CODE = "urls"
TITLE = "URL or e-mail address changed"
# Finds nothing in a value unless it or its source shows this (``checks.Signal``).
SIGNAL = Signal(characters=":@")

_URL = re.compile(r"(?=[hfm])(?:(?:https?|ftp)://|mailto:)[^\s<>\"'`{}|\\^]+")
# An e-mail address, tried only where a word starts (not again inside each word).
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
ADDRESS = re.compile(f"{_URL.pattern}|{_EMAIL.pattern}")
_TAIL = ".,;:!?)]'\""


@lru_cache(maxsize=8192)
def addresses(text: str) -> tuple[str, ...]:
    if "://" not in text and "@" not in text and "mailto:" not in text:
        return ()
    found = _URL.findall(text) if "://" in text or "mailto:" in text else []
    if "@" in text:
        found += [address for address in _EMAIL.findall(text) if not any(address in url for url in found)]
    return tuple(dict.fromkeys(match.rstrip(_TAIL) for match in found))


def check(target: Target) -> list[Issue]:
    source, value = target.source, target.value
    if not source or not value or ("://" not in source and "@" not in source and "mailto:" not in source):
        return []
    wanted = addresses(source)
    if not wanted:
        return []
    missing = [address for address in wanted if address not in value]
    if not missing:
        return []
    return [
        Issue(
            CODE,
            f"The value lacks the source's {plural_word(len(missing), 'address')} {', '.join(missing)}.",
        )
    ]
