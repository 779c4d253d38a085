"""Every check, by code, in the order the editor lists them."""

from loko.checks import (
    double_space,
    glossary,
    icu_syntax,
    max_length,
    placeholders,
    punctuation,
    tags,
    untranslated,
    urls,
    whitespace,
)

CHECKS = {
    module.CODE: module
    for module in (
        placeholders,
        icu_syntax,
        tags,
        whitespace,
        double_space,
        punctuation,
        urls,
        max_length,
        untranslated,
        glossary,
    )
}
