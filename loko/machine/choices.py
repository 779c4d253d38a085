"""ICU plural, selectordinal and select messages, translated branch by branch.

A provider translates sentences, not ICU syntax. So a message with choices is first hoisted
(as CAT tools and FormatJS do): the text around a choice moves into each of its branches,
``You have {count, plural, one {# file} other {# files}} in {folder}`` becoming
``{count, plural, one {You have # file in {folder}} other {You have # files in {folder}}}``,
so each branch is a whole sentence. Each branch's text is sent with its arguments masked
(a plural's ``#`` travels as the placeholder ``{#}``), and the message is put together again
in the target language's categories: a category the target needs and the source lacks gets
the translation of the source's ``other``, a category the target does not have is dropped,
and exact selectors (``=0``) and select keys stay as they are.

Refused (``MaskingError``, the text is not sent): a message that does not parse, one whose
hoisting would put a ``#`` under another plural than its own (two plurals side by side on
different arguments), a plural with an ``offset``, and one whose hoisting makes more than
``MAXIMUM_BRANCHES`` sentences.
"""

import re
from dataclasses import dataclass

from loko.checks.icu import parse
from loko.formats.plurals import categories, ordinal_categories
from loko.machine.masking import MaskingError

MAXIMUM_BRANCHES = 64
HASH = "{#}"
_CHOICES = ("plural", "selectordinal", "select")
_COUNTED = ("plural", "selectordinal")
_OFFSET = re.compile(r",\s*plural\s*,\s*offset\s*:")


@dataclass(frozen=True)
class Exploded:
    """A choice message: ``texts`` are the sentences to translate (arguments as ``{name}``,
    ``#`` as ``{#}``); ``assemble`` puts their translations together in the target's forms."""

    tree: dict
    texts: tuple[str, ...]
    target: str

    def assemble(self, translations: list[str]) -> str:
        """The ICU message of the target language from ``translations`` (in ``texts`` order)."""
        by_text = dict(zip(self.texts, translations, strict=True))
        return _render_choice(self.tree, by_text, self.target, None)


def explode(text: str, target: str) -> Exploded | None:
    """The sentences of a choice message (None when ``text`` has no choice; MaskingError
    when it cannot be sent)."""
    if "{" not in text:
        return None
    tree, error = parse(text)
    if tree is None:
        if _has_choice_word(text):
            raise MaskingError(f"the ICU message does not parse ({error})")
        return None
    if not _has_choice(tree):
        return None
    if _OFFSET.search(text):
        raise MaskingError("plurals with an offset are not sent to machine translation")
    hoisted = _hoist(tree)
    if not _hashes_kept(hoisted, None):
        raise MaskingError(
            "the message's plurals cannot be made whole sentences without changing what a # counts"
        )
    leaves = list(dict.fromkeys(_leaves(hoisted)))
    if len(leaves) > MAXIMUM_BRANCHES:
        raise MaskingError(f"the message has more than {MAXIMUM_BRANCHES} branches to translate")
    return Exploded(tree=hoisted, texts=tuple(leaves), target=target)


def refusal(text: str) -> str | None:
    """Why ``text`` cannot go to a provider as far as its choices go, or None."""
    try:
        explode(text, "en")
    except MaskingError as error:
        return error.message
    return None


def _has_choice_word(text: str) -> bool:
    return re.search(r"\{\s*[^\s{},]+\s*,\s*(?:plural|selectordinal|select)\s*,", text) is not None


def _has_choice(nodes: list) -> bool:
    return any(isinstance(node, dict) and node.get("type") in _CHOICES for node in nodes)


def _hashes_kept(hoisted, plural: str | None) -> bool:
    """Whether every ``#`` of the hoisted message still counts its own plural's argument."""
    if isinstance(hoisted, dict):
        inner = hoisted["name"] if hoisted["type"] in _COUNTED else plural
        return all(_hashes_kept(branch, inner) for branch in hoisted["options"].values())
    return all(node["name"] == plural for node in hoisted if isinstance(node, dict) and node.get("hash"))


def _hoist(nodes: list) -> dict | list:
    """``nodes`` with their first choice moved outward: a choice node whose branches are
    hoisted in turn, or the nodes themselves when they hold no choice."""
    for index, node in enumerate(nodes):
        if isinstance(node, dict) and node.get("type") in _CHOICES:
            before, after = nodes[:index], nodes[index + 1 :]
            options = {key: _hoist(before + branch + after) for key, branch in node["options"].items()}
            return {"name": node["name"], "type": node["type"], "options": options}
    return nodes


def _leaves(hoisted) -> list[str]:
    if isinstance(hoisted, dict):
        return [leaf for branch in hoisted["options"].values() for leaf in _leaves(branch)]
    return [_sentence(hoisted)]


def _argument(node: dict) -> str:
    if node.get("hash"):
        return HASH
    parts = [node["name"], node.get("type"), node.get("style")]
    return "{" + ", ".join(part for part in parts if part) + "}"


def _sentence(nodes: list) -> str:
    """A branch as the provider reads it: plain text unquoted, arguments as written."""
    return "".join(node if isinstance(node, str) else _argument(node) for node in nodes)


def _forms(node: dict, target: str) -> list[tuple[str, str]]:
    """(selector in the target, selector of the source branch to use)."""
    options = node["options"]
    if node["type"] == "select":
        return [(key, key) for key in options]
    wanted = categories(target) if node["type"] == "plural" else ordinal_categories(target)
    exact = [(key, key) for key in options if key.startswith("=")]
    fallback = "other" if "other" in options else next(iter(options))
    return exact + [(category, category if category in options else fallback) for category in wanted]


def _render_choice(hoisted, by_text: dict, target: str, plural: str | None) -> str:
    if not isinstance(hoisted, dict):
        return _quote_sentence(by_text[_sentence(hoisted)], hoisted, plural)
    inner = hoisted["name"] if hoisted["type"] in _COUNTED else plural
    branches = " ".join(
        f"{selector} {{{_render_choice(hoisted['options'][source], by_text, target, inner)}}}"
        for selector, source in _forms(hoisted, target)
    )
    return f"{{{hoisted['name']}, {hoisted['type']}, {branches}}}"


def _quote_sentence(translated: str, nodes: list, plural: str | None) -> str:
    """A translated sentence as ICU text: its arguments as they are (``{#}`` as ``#``), the
    text between them quoted where ICU would read it as syntax."""
    arguments = sorted({_argument(node) for node in nodes if isinstance(node, dict)}, key=len, reverse=True)
    if not arguments:
        return _quote(translated, plural is not None)
    pattern = re.compile("|".join(re.escape(argument) for argument in arguments))
    out, position = [], 0
    for match in pattern.finditer(translated):
        out.append(_quote(translated[position : match.start()], plural is not None))
        out.append("#" if match.group() == HASH else match.group())
        position = match.end()
    out.append(_quote(translated[position:], plural is not None))
    return "".join(out)


def _quote(text: str, in_plural: bool) -> str:
    special = "{}#" if in_plural else "{}"
    out = []
    for position, character in enumerate(text):
        if character in special:
            out.append(f"'{character}'")
        elif character == "'":
            following = text[position + 1 : position + 2]
            out.append("''" if not following or following in "{}#|'" else "'")
        else:
            out.append(character)
    return "".join(out)
