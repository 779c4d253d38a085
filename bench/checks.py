"""The checks engine's speed: ``run_many`` over 100,000 realistic values, every check on.

    python -m bench.checks

Two layouts of the same mix of texts (plain sentences, printf/brace/i18next placeholders,
tags, ICU plurals, URLs, trailing colons and newlines, a few values with mistakes):

- ``one language``: an import of 100,000 keys of one language, every source different;
- ``by key``: 10,000 keys checked in 10 languages, a key's languages together (a source
  edited, or a bulk upsert of many languages), so a source's reading is shared;
- ``by language``: the same, a language's values together (an import of one file a
  language): ``run_many`` groups them by source itself.

Every run uses texts it has not seen before (nothing cached from an earlier run). Each figure
is the best of a few runs; the target is 150,000 values/s.
"""

import argparse
import random
import re
import sys
import time

from loko.checks import Target, run_many

VALUES = 100_000
RUNS = 3
TARGET_PER_S = 150_000
LANGUAGES = ("de", "fr", "es", "pl", "ja", "ar", "zh-Hans", "pt-BR", "ru", "it")
WORDS = tuple(
    [
        "file",
        "folder",
        "project",
        "settings",
        "account",
        "password",
        "language",
        "translation",
        "value",
        "key",
        "export",
        "import",
        "save",
        "delete",
        "open",
        "close",
        "share",
        "review",
        "change",
        "update",
        "user",
        "team",
        "repository",
        "branch",
        "message",
    ]
)


_TRANSLATED = {word: word[::-1] + "ö" for word in WORDS} | {
    word.capitalize(): word[::-1].capitalize() + "ö" for word in WORDS
}
_WORD = re.compile(r"[A-Za-z]+")


def _sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize()


def source_text(rng: random.Random, index: int, run: int) -> str:
    """One source of the mix, unique to (index, run)."""
    tail = f"{index} {run}"
    kind = index % 20
    sentence = _sentence(rng, rng.randint(2, 9))
    if kind < 9:
        return f"{sentence} {tail}{rng.choice(('', '.', '.', '?', ':'))}"
    if kind < 11:
        return f"{sentence} %1$s and %2$d {tail}."
    if kind == 11:
        return f"Hello %@, {sentence} %lld {tail}"
    if kind == 12:
        return f"{sentence} {{name}} in {{path}} {tail}."
    if kind == 13:
        return f"{sentence} {{{{count}}}} {tail}"
    if kind == 14:
        return f'Click <b>{sentence}</b> to <a href="/help">continue</a> {tail}.'
    if kind == 15:
        return f"{{count, plural, one {{# {sentence} {tail}}} other {{# {sentence}s {tail}}}}}"
    if kind == 16:
        return f"See https://loko.example/docs/{index} for {sentence} {tail}."
    if kind == 17:
        return f"{sentence} {tail}:\n"
    if kind == 18:
        return f"%(person)s {sentence} {tail}"
    return f"{sentence} {tail}!"


def value_text(rng: random.Random, source: str, language: str) -> str:
    """A translation of ``source``: its words changed, its markup kept; one in 25 has a slip."""
    value = _WORD.sub(lambda match: _TRANSLATED.get(match.group(), match.group()), source)
    if "plural" in source and language in ("pl", "ru"):
        value = value[:-1] + " few {# x} many {# y}}"
    slip = rng.randrange(25)
    if slip == 0:
        value = value.replace("%1$s", "%1$d").replace("{name}", "{nom}").replace("<b>", "")
    elif slip == 1:
        value = value.rstrip(".?!:\n")
    elif slip == 2:
        value = value.replace(" ", "  ", 1)
    elif slip == 3:
        value = value.replace("</b>", "")
    return value


def targets_one_language(run: int) -> list[Target]:
    rng = random.Random(run)
    targets = []
    for index in range(VALUES):
        source = source_text(rng, index, run)
        targets.append(Target(value_text(rng, source, "de"), "de", source, "en", max_length=200))
    return targets


def targets_by_key(run: int) -> list[Target]:
    rng = random.Random(run + 1000)
    targets = []
    for index in range(VALUES // len(LANGUAGES)):
        source = source_text(rng, index, run + 1000)
        for language in LANGUAGES:
            targets.append(Target(value_text(rng, source, language), language, source, "en", max_length=200))
    return targets


def targets_by_language(run: int) -> list[Target]:
    """The same keys as ``targets_by_key``, a language's values together (an import of ten
    files, one a language)."""
    targets = targets_by_key(run)
    return sorted(targets, key=lambda target: LANGUAGES.index(target.language))


def measure(make) -> tuple[float, float, int]:
    """The best values/s of ``RUNS`` runs over fresh texts, by the clock and by this process's
    CPU time (the same on an idle machine; apart on a shared one), and the issues found."""
    best, best_cpu, found = 0.0, 0.0, 0
    for run in range(RUNS):
        targets = make(run)
        started, started_cpu = time.perf_counter(), time.process_time()
        results = run_many(targets)
        elapsed, elapsed_cpu = time.perf_counter() - started, time.process_time() - started_cpu
        best = max(best, len(targets) / elapsed)
        best_cpu = max(best_cpu, len(targets) / elapsed_cpu)
        found = sum(len(issues) for issues in results)
    return best, best_cpu, found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    ok = True
    layouts = (
        ("one language", targets_one_language),
        ("by key", targets_by_key),
        ("by language", targets_by_language),
    )
    for label, make in layouts:
        per_second, per_cpu_second, found = measure(make)
        ok = ok and per_second >= TARGET_PER_S
        print(
            f"checks, {label}: {per_second:,.0f} values/s, {per_cpu_second:,.0f} per CPU second "
            f"({VALUES / per_second:.2f} s for {VALUES:,} values, {found:,} issues; "
            f"target {TARGET_PER_S:,}/s)"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
