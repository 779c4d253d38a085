"""The checks, one module each, on samples from real projects."""

from loko.checks import Target


def messages(module, value: str, source: str | None, language: str = "de", **details) -> list[str]:
    """The messages ``module``'s check gives for ``value`` (in ``language``) against ``source``."""
    target = Target(value=value, language=language, source=source, source_language="en", **details)
    return [issue.message for issue in module.check(target)]


def fixes(module, value: str, source: str | None, language: str = "de", **details) -> list[str | None]:
    target = Target(value=value, language=language, source=source, source_language="en", **details)
    return [issue.fix for issue in module.check(target)]
