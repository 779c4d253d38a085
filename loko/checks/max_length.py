"""A value longer than its key's place holds (the key's ``maxLength``, in characters)."""

from loko.checks import Issue, Signal, Target

CODE = "max-length"
TITLE = "Longer than the key's maximum length"
SIGNAL = Signal(too_long=True)


def check(target: Target) -> list[Issue]:
    if target.max_length is None or len(target.value) <= target.max_length:
        return []
    return [
        Issue(
            CODE,
            f"The value has {len(target.value)} characters; the key holds at most {target.max_length}.",
        )
    ]
