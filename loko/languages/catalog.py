"""What CLDR (through Babel) knows of a language code: its English name and the flag of its
region. (Its gettext plural rule is the PO format's: ``loko.formats.plurals.plural_forms``.)"""

from functools import lru_cache

from babel import Locale, UnknownLocaleError

REGIONAL_INDICATOR_A = 0x1F1E6


def _locale(code: str) -> Locale | None:
    try:
        return Locale.parse(code.replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError):
        return None


def region_of(code: str) -> str | None:
    for subtag in code.replace("_", "-").split("-")[1:]:
        if len(subtag) == 2 and subtag.isalpha():
            return subtag.upper()
    return None


def flag_emoji(code: str) -> str:
    region = region_of(code)
    if region is None:
        return ""
    return "".join(chr(REGIONAL_INDICATOR_A + ord(letter) - ord("A")) for letter in region)


@lru_cache(maxsize=1024)
def language_name(code: str) -> str:
    locale = _locale(code)
    if locale is None:
        return code
    return locale.get_display_name("en") or code


@lru_cache(maxsize=1024)
def text_direction(code: str) -> str:
    """``"rtl"`` for a language written right to left (Arabic, Hebrew, Persian, Urdu ...),
    ``"ltr"`` for any other, and for a code CLDR does not know."""
    locale = _locale(code)
    return "rtl" if locale is not None and locale.text_direction == "rtl" else "ltr"
