"""A memory match adapted to the text looked up: where the match's source differs from the
text only in its placeholders, its translation takes the text's placeholders, mapped one to
one by position and kind (what translation tools call adapting placeables)."""

from loko.checks.placeholders import kind, read, spans


def adapt(match_source: str, translation: str, text: str) -> tuple[str, bool] | None:
    """``(translation, adapted)``: the translation as it is when the match's source has the
    text's placeholders (``adapted`` False), or with each of the match source's placeholders
    replaced by the text's placeholder at the same position (``adapted`` True). None when no
    one-to-one mapping exists: a different number or kind of placeholders, one placeholder
    of the source standing for two of the text, a translation holding a placeholder its
    source lacks, or ICU messages whose arguments differ."""
    wanted, _ = read(text)
    given, _ = read(match_source)
    if wanted is None or given is None:
        return None
    if list(wanted) == list(given):
        return translation, False
    if len(wanted) != len(given):
        return None
    mapping: dict[str, str] = {}
    for old, new in zip(given, wanted, strict=True):
        if kind(old) != kind(new) or mapping.setdefault(old, new) != new:
            return None
    if len(set(mapping.values())) != len(mapping):
        return None
    places = spans(translation)
    if places is None or spans(match_source) is None or spans(text) is None:
        return None
    adapted = translation
    for start, end, token in reversed(places):
        if token not in mapping:
            return None
        adapted = adapted[:start] + mapping[token] + adapted[end:]
    return adapted, True
