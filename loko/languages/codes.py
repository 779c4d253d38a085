"""Language codes: the one canonical BCP 47 form of a code, checked against the IANA
language subtag registry (through langcodes, whose registry data is compiled into its
code), and the forms a file path may hold a code in.

Pure and free of any server code, so the pipeline client shares it with the server.
"""

import re
from functools import cache, lru_cache

# BCP 47 shaped: a 2-3 letter language, then subtags of 2-8 letters or digits (no
# extensions or private use: a singleton such as -x- is refused), joined by
# hyphens (underscores, as in gettext's and Java's ``pt_BR``, are read as hyphens).
CODE_SHAPE = re.compile(r"^[A-Za-z]{2,3}(?:[_-][A-Za-z0-9]{2,8})*$")
MAX_CODE = 35


def _cased(code: str) -> str:
    """RFC 5646 2.1.1's casing: the language lowercase, a script titlecase (``Hant``), a
    region uppercase (``BR``; ``419`` has no case), a variant lowercase."""
    language, *subtags = code.lower().split("-")
    cased = [language]
    for subtag in subtags:
        if len(subtag) == 2:
            subtag = subtag.upper()
        elif len(subtag) == 4 and subtag.isalpha():
            subtag = subtag.title()
        cased.append(subtag)
    return "-".join(cased)


@lru_cache(maxsize=4096)
def canonical_code(text: str) -> str:
    """The canonical form of a language code (``EN`` -> ``en``, ``pt_br`` -> ``pt-BR``,
    ``zh-hant-tw`` -> ``zh-Hant-TW``). Only the casing and the separator change, never a
    subtag (``iw`` stays ``iw``). ValueError for a code that is not BCP 47 or whose subtags
    the IANA language subtag registry does not know (``qq``, ``xx-bogus``)."""
    if not isinstance(text, str) or len(text) > MAX_CODE or not CODE_SHAPE.match(text):
        raise ValueError(f"{str(text)[:40]!r} is not a language code (BCP 47, e.g. 'de' or 'pt-BR').")
    return _canonical(text)


@lru_cache(maxsize=4096)
def _canonical(text: str) -> str:
    """``canonical_code`` of a code of the right shape, kept: every write names its
    languages, and the registry's lookup costs more than the rest of a small write's checks."""
    from langcodes import tag_is_valid  # the registry's data, loaded with the first code read

    code = _cased(text.replace("_", "-"))
    if not tag_is_valid(code):
        raise ValueError(f"{text!r} is not a known language code (BCP 47, e.g. 'de' or 'pt-BR').")
    return code


@cache
def known_code_pattern() -> str:
    """A regular expression (in the syntax JSON Schema shares with Python) of canonical codes
    that ``canonical_code`` accepts as they are: a language the registry knows, then maybe a
    script, a region and one variant it knows (``de``, ``pt-BR``, ``zh-Hant-TW``, ``es-419``,
    ``de-CH-1996``). Codes with an extended language subtag or several variants, which it
    accepts too, are left out. Built from the registry data ``tag_is_valid`` checks against,
    which validates each subtag on its own, so any sequence of these is valid."""
    from langcodes.data_dicts import ALL_SCRIPTS, VALIDITY

    subtags = set(ALL_SCRIPTS) - {"Qaaa..Qabx"}  # the private-use range; VALIDITY has it
    for alternative in VALIDITY.pattern.removeprefix("^(").removesuffix(")$").split("|"):
        subtags.update(_expanded(alternative))
    kinds = (r"[a-z]{2,3}", r"[A-Z][a-z]{3}", r"[A-Z]{2}|[0-9]{3}", r"[0-9a-z]{5,8}|[0-9][0-9a-z]{3}")
    language, script, region, variant = (
        _alternation(sorted(tag for tag in subtags if re.fullmatch(kind, tag))) for kind in kinds
    )
    return f"^{language}(?:-{script})?(?:-{region})?(?:-{variant})?$"


def _expanded(fragment: str) -> list[str]:
    """The strings a fragment of VALIDITY (letters and classes such as ``[a-ik]``) matches."""
    strings = [""]
    for found in re.finditer(r"\[([^\]]+)\]|(.)", fragment):
        if found.group(2):
            characters = [found.group(2)]
        else:
            characters = [
                chr(code)
                for start, end in re.findall(r"(.)(?:-(.))?", found.group(1))
                for code in range(ord(start), ord(end or start) + 1)
            ]
        strings = [string + character for string in strings for character in characters]
    return strings


def _alternation(words: list[str]) -> str:
    """A compact regular expression matching exactly ``words`` (a trie: shared beginnings
    written once, last characters as classes)."""
    trie: dict = {}
    for word in words:
        node = trie
        for character in word:
            node = node.setdefault(character, {})
        node[""] = {}

    def written(node: dict) -> str:
        children = {key: child for key, child in node.items() if key}
        last = [key for key, child in children.items() if list(child) == [""]]
        branches = [key + written(child) for key, child in sorted(children.items()) if list(child) != [""]]
        if last:
            branches.append(_character_class(last))
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if "" not in node:
            return body
        single = len(branches) == 1 and (len(body) == 1 or (body.startswith("[") and bool(last)))
        return f"{body}?" if single or len(branches) > 1 else f"(?:{body})?"

    return written(trie)


def _character_class(characters: list[str]) -> str:
    """``[a-df]`` for a, b, c, d and f; a single character as itself."""
    if len(characters) == 1:
        return characters[0]
    codes = sorted(map(ord, characters))
    runs = [[codes[0], codes[0]]]
    for code in codes[1:]:
        if code == runs[-1][1] + 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    parts = (chr(a) + ("-" if b - a > 1 else "") + chr(b) if b > a else chr(a) for a, b in runs)
    return "[" + "".join(parts) + "]"


# The forms a file path may hold a code in: the canonical one (``pt-BR``), gettext's and
# Java's locale (``pt_BR``), and Android's resource qualifier (``pt-rBR``, ``b+sr+Latn``).


def locale_form(code: str) -> str:
    return code.replace("-", "_")


def android_form(code: str) -> str:
    """``values-{android}``: ``pt-rBR`` for a language and a region, ``b+sr+Latn`` (BCP 47
    with '+') for any other code with more than a language."""
    subtags = code.split("-")
    if len(subtags) == 1:
        return code
    if len(subtags) == 2 and len(subtags[1]) == 2 and subtags[1].isalpha():
        return f"{subtags[0]}-r{subtags[1]}"
    return "b+" + "+".join(subtags)


def from_android(text: str) -> str:
    """The canonical code of an Android qualifier (``pt-rBR``, ``b+sr+Latn``, ``de``);
    ValueError as canonical_code."""
    if text.startswith("b+"):
        return canonical_code(text[2:].replace("+", "-"))
    language, separator, region = text.partition("-r")
    if separator and len(region) == 2 and region.isalpha():
        return canonical_code(f"{language}-{region}")
    if "-" in text or "_" in text:
        raise ValueError(f"{text!r} is not an Android language qualifier (e.g. 'de', 'pt-rBR', 'b+sr+Latn').")
    return canonical_code(text)


# Path templates: ``{language}`` holds the canonical code, ``{locale}`` the underscore form
# and ``{android}`` the resource qualifier; a path read through any of them gives back the
# canonical code. The import, the repository integration and the pipeline client all place
# and read codes through these, so a file pulled goes back where it was pushed from.

_CODE_TEXT = r"[A-Za-z]{2,3}(?:[_-][A-Za-z0-9]{2,8})*"
CODE_PLACEHOLDERS = {
    "{language}": (_CODE_TEXT, lambda code: code, canonical_code),
    "{locale}": (_CODE_TEXT, locale_form, canonical_code),
    "{android}": (
        r"[A-Za-z]{2,3}(?:-r[A-Za-z]{2})?|b\+[A-Za-z]{2,3}(?:\+[A-Za-z0-9]{1,8})*",
        android_form,
        from_android,
    ),
}
CODE_PLACEHOLDER = re.compile("|".join(re.escape(name) for name in CODE_PLACEHOLDERS))


def code_placeholder(template: str) -> str | None:
    """The one code placeholder a template uses, None for a template without any; ValueError
    when it mixes several (each would have to say the same code)."""
    used = sorted(set(CODE_PLACEHOLDER.findall(template)))
    if len(used) > 1:
        raise ValueError(f"{template!r} mixes {' and '.join(used)}; use one of them.")
    return used[0] if used else None


def code_pattern(placeholder: str) -> str:
    """The regex of what the placeholder matches in a path (checked by code_in_path)."""
    return CODE_PLACEHOLDERS[placeholder][0]


def code_in_path(placeholder: str, text: str) -> str:
    """The canonical code of what a path holds at the placeholder; ValueError as canonical_code."""
    return CODE_PLACEHOLDERS[placeholder][2](text)


def code_for_path(placeholder: str, code: str) -> str:
    """How the placeholder writes a (canonical) code in a path."""
    return CODE_PLACEHOLDERS[placeholder][1](code)


def fill_code(template: str, code: str) -> str:
    """The template with each code placeholder replaced by the code in its form."""
    return CODE_PLACEHOLDER.sub(lambda found: code_for_path(found.group(), code), template)
