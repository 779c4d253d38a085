"""Placeholders a machine translation must keep, hidden from the provider behind opaque tokens.

Before a text goes to a provider, every placeholder is replaced by a token the provider must
carry over unchanged; after, the tokens are put back and the result is verified. Masked:

- ICU and brace arguments: ``{name}``, ``{0}``, ``{count, number}``, ``{when, date, short}``
  (the whole argument, braces included), and ``{{name}}`` (Mustache, Handlebars, i18next);
- printf conversions: ``%s``, ``%d``, ``%1$s``, ``%.2f``, ``%@``, ``%(name)s``, ``%%``;
- HTML and XML tags (``<b>``, ``</a>``, ``<br/>``, with their attributes) and comments;
- URLs (``http://`` and ``https://`` up to the first space, without a final punctuation mark).

ICU ``plural``, ``select`` and ``selectordinal`` arguments are refused (``MaskingError``):
their branches are whole sentences in the target language's own plural categories, which a
provider translating one string cannot produce (a language with more categories than the
source needs branches that do not exist yet). They are translated by people.

Two kinds of token, one per kind of provider (``Style``):

- ``xml``: ``<x id="0"/>``, for DeepL with ``tag_handling=xml`` and ``ignore_tags=x``: DeepL
  parses the text as XML, keeps every tag and never translates inside an ignored one, which
  is the strongest guarantee a provider offers. The rest of the text is escaped (``&``,
  ``<``, ``>``) so that a literal ``<`` cannot break the XML, and unescaped in the answer.
- ``brackets``: ``⟦0⟧``, for LLMs and LibreTranslate. Mathematical white square brackets
  mean nothing in any placeholder syntax, markup or Markdown, so a model has no reason to
  translate, reformat or "fix" them and copies them as the symbols they are (the system
  instruction says so); they survive LibreTranslate's plain text mode, whose HTML mode
  re-serializes markup and unescapes its answer, so what came back would not be what was sent.

Verification (``unmask``): every token must come back exactly once, and no token that was
not sent may appear; then the placeholders of the result, read by the same tokenizer, must be
exactly those of the source (a provider that wrote a raw ``{name}`` or ``%s`` of its own is
caught too). Anything else raises ``MaskingError``: the result is refused, never suggested.

The tokenizer is a few regular expressions and a brace matcher, kept small on purpose.
"""

import html
import re
from collections import Counter
from dataclasses import dataclass
from typing import Literal

Style = Literal["xml", "brackets"]

_PRINTF = (
    r"%(?:\([A-Za-z_][\w.]*\))?(?:\d+\$)?[-+0#]*(?:\d+|\*)?(?:\.(?:\d+|\*))?"
    r"(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGcrsaA@%]"
)
_TAG = r"<!--.*?-->|</?[A-Za-z][\w:.-]*(?:\s+[^<>]*?)?\s*/?>"
_URL = r"https?://[^\s<>\"'⟦⟧]+(?<![.,;:!?)\]])"
_FLAT = re.compile(f"{_URL}|{_TAG}|{_PRINTF}", re.DOTALL)
# Where a placeholder may start: the scan jumps from one of these to the next.
_CANDIDATE = re.compile(r"[{<%]|https?://")
_ICU_KIND = re.compile(r"^\s*[^\s,{}]+\s*,\s*(plural|select|selectordinal)\s*,", re.IGNORECASE)

_XML_TOKEN = re.compile(r'<x\s+id\s*=\s*"(\d+)"\s*(?:/>|>\s*</x>)')
_BRACKET_TOKEN = re.compile(r"⟦\s*(\d+)\s*⟧")
_ANY_XML_TAG = re.compile(r"</?x\b[^>]*>")


class MaskingError(Exception):
    """A text cannot be masked, or a provider's answer lost, repeated or invented a token or
    placeholder: the result is refused. ``message`` says which, for people."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Masked:
    """A text as a provider receives it: ``text`` with ``pieces[i]`` replaced by token ``i``."""

    source: str
    text: str
    pieces: tuple[str, ...]
    style: Style


def placeholders(text: str) -> list[str]:
    """Every placeholder, tag and URL of ``text`` in order; MaskingError for an ICU plural or
    select argument."""
    return [piece for piece, _start, _end in _scan(text)]


def _scan(text: str) -> list[tuple[str, int, int]]:
    found = []
    position = 0
    while True:
        candidate = _CANDIDATE.search(text, position)
        if candidate is None:
            return found
        position = candidate.start()
        if text.startswith("{{", position):
            end = text.find("}}", position + 2)
            if end != -1:
                found.append((text[position : end + 2], position, end + 2))
                position = end + 2
                continue
        if text[position] == "{":
            end = _closing_brace(text, position)
            if end != -1:
                argument = text[position : end + 1]
                kind = _ICU_KIND.match(argument[1:])
                if kind:
                    raise MaskingError(
                        f"ICU {kind.group(1).lower()} messages are not sent to machine translation: "
                        "their branches follow the target language's plural rules; translate them by hand"
                    )
                found.append((argument, position, end + 1))
                position = end + 1
                continue
        match = _FLAT.match(text, position)
        if match:
            found.append((match.group(), position, match.end()))
            position = match.end()
            continue
        position += 1


def _closing_brace(text: str, start: int) -> int:
    depth = 0
    for index in range(start, len(text)):
        if text[index] == "{":
            depth += 1
        elif text[index] == "}":
            depth -= 1
            if depth == 0:
                return index
    return -1


def _token(style: Style, number: int) -> str:
    return f'<x id="{number}"/>' if style == "xml" else f"⟦{number}⟧"


def _plain(style: Style, text: str) -> str:
    return html.escape(text, quote=False) if style == "xml" else text


def mask(text: str, style: Style) -> Masked:
    """``text`` with every placeholder, tag and URL replaced by a token of ``style``;
    MaskingError for an ICU plural or select, or a text already holding a token's symbols."""
    if style == "brackets" and ("⟦" in text or "⟧" in text):
        raise MaskingError("the text holds the characters ⟦ or ⟧, which Loko uses to mark placeholders")
    parts, pieces, position = [], [], 0
    for piece, start, end in _scan(text):
        parts.append(_plain(style, text[position:start]))
        parts.append(_token(style, len(pieces)))
        pieces.append(piece)
        position = end
    parts.append(_plain(style, text[position:]))
    return Masked(source=text, text="".join(parts), pieces=tuple(pieces), style=style)


def unmask(masked: Masked, translated: str) -> str:
    """The provider's ``translated`` text with its tokens put back; MaskingError when a token
    is missing, repeated or unknown, or the result's placeholders differ from the source's."""
    pattern = _XML_TOKEN if masked.style == "xml" else _BRACKET_TOKEN
    seen = Counter(int(match.group(1)) for match in pattern.finditer(translated))
    missing = [masked.pieces[i] for i in range(len(masked.pieces)) if seen[i] == 0]
    repeated = [masked.pieces[i] for i, count in seen.items() if i < len(masked.pieces) and count > 1]
    invented = sorted(i for i in seen if i >= len(masked.pieces))
    if missing:
        raise MaskingError(f"the translation lost placeholder(s) {', '.join(missing)}")
    if repeated:
        raise MaskingError(f"the translation repeated placeholder(s) {', '.join(repeated)}")
    if invented:
        raise MaskingError("the translation holds placeholder tokens that were not in the text")

    def restore(match: re.Match) -> str:
        return "\0" + match.group(1) + "\0"

    marked = pattern.sub(restore, translated)
    if masked.style == "xml":
        if _ANY_XML_TAG.search(marked):
            raise MaskingError("the translation holds placeholder tokens Loko cannot read")
        marked = html.unescape(marked)
    elif "⟦" in marked or "⟧" in marked:
        raise MaskingError("the translation holds placeholder tokens Loko cannot read")
    result = re.sub(r"\0(\d+)\0", lambda match: masked.pieces[int(match.group(1))], marked)
    try:
        found = Counter(placeholders(result))
    except MaskingError as error:
        raise MaskingError(f"the translation is not usable: {error.message}") from None
    expected = Counter(masked.pieces)
    if found != expected:
        extra = sorted((found - expected).elements())
        lost = sorted((expected - found).elements())
        detail = "; ".join(
            part
            for part in (
                f"added {', '.join(extra)}" if extra else "",
                f"lost {', '.join(lost)}" if lost else "",
            )
            if part
        )
        raise MaskingError(f"the translation's placeholders differ from the source's ({detail})")
    return result
