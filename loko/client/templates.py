"""Path templates: where a project's files are, relative to the configuration's folder, e.g.
``locales/{language}/{fileName}.json``.

``{language}`` is a language code within one folder or file name; ``{fileName}`` is a
file's name in Loko and may span folders: it is the part of the path the template leaves
once its literal text (and so its extension) is taken away. The server reads a pushed
archive with the same rules, so a file pushed from a path is pulled back to that path.
"""

import glob
import os
import re
from dataclasses import dataclass
from pathlib import Path

LANGUAGE = "{language}"
FILE_NAME = "{fileName}"
PLACEHOLDER = re.compile(r"\{[^{}/]*\}")
# A language code as the server accepts one (BCP 47 shaped: `de`, `pt-BR`, `zh_Hant`).
LANGUAGE_PATTERN = r"[A-Za-z]{2,3}(?:[_-][A-Za-z0-9]{2,8})*"
LANGUAGE_CODE = re.compile(LANGUAGE_PATTERN)


class TemplateError(ValueError):
    """A path template, a language code or a file name that cannot be used."""


@dataclass(frozen=True)
class Match:
    """A local file a template matches: its path (relative, with '/') and what the path says."""

    path: str
    language: str | None
    file_name: str


def unsafe_relative_path(path: str) -> bool:
    """True for a path that is absolute, has a drive, a backslash, or an empty, '.' or '..'
    segment: one that could name something outside the folder it is relative to."""
    segments = path.split("/")
    return (
        not path
        or path.startswith("/")
        or "\\" in path
        or ":" in segments[0]
        or any(segment in ("", ".", "..") for segment in segments)
    )


def check_language(code: str) -> str:
    if not LANGUAGE_CODE.fullmatch(code):
        raise TemplateError(f"{code!r} is not a language code (BCP 47, e.g. 'de' or 'pt-BR')")
    return code


class PathTemplate:
    """One ``[[files]]`` path: finds local files, reads the language and file name out of a
    path, and places a file of the project at its path."""

    def __init__(self, text: str, multilingual: bool = False):
        self.text = text
        self.multilingual = multilingual
        self._check()
        self._parts = re.split(r"(\{language\}|\{fileName\})", text)
        self.pattern = self._regex()

    def _check(self) -> None:
        text = self.text
        unknown = sorted(set(PLACEHOLDER.findall(text)) - {LANGUAGE, FILE_NAME})
        if unknown:
            raise TemplateError(
                f"unknown placeholder {unknown[0]} in {text!r} (use {{language}} and {{fileName}})"
            )
        if unsafe_relative_path(text):
            raise TemplateError(
                f"{text!r} must be a relative path with '/' between folders and no '.' or '..' folders"
            )
        if text.count(FILE_NAME) != 1:
            raise TemplateError(f"{text!r} must contain {FILE_NAME} once")
        if self.multilingual and LANGUAGE in text:
            raise TemplateError(f"{text!r}: one file holds every language in this format, so no {LANGUAGE}")
        if not self.multilingual and LANGUAGE not in text:
            raise TemplateError(f"{text!r} must contain {LANGUAGE}")

    def _regex(self) -> re.Pattern:
        pattern, named = [], False
        for part in self._parts:
            if part == LANGUAGE:
                pattern.append("(?P=language)" if named else f"(?P<language>{LANGUAGE_PATTERN})")
                named = True
            elif part == FILE_NAME:
                pattern.append("(?P<fileName>.+?)")
            else:
                pattern.append(re.escape(part))
        return re.compile("".join(pattern))

    def _globs(self) -> list[str]:
        # {fileName} is one name, or several folders deep: two globs cover both.
        patterns = []
        for file_name in ("*", "*/**/*"):
            parts = [
                "*" if part == LANGUAGE else file_name if part == FILE_NAME else glob.escape(part)
                for part in self._parts
            ]
            patterns.append("".join(parts))
        return patterns

    def match(self, path: str) -> Match | None:
        """What ``path`` (relative, with '/') says, or None when the template does not fit it."""
        found = self.pattern.fullmatch(path)
        if found is None or unsafe_relative_path(found["fileName"]):
            return None
        return Match(path, found.groupdict().get("language"), found["fileName"])

    def find(self, root: Path) -> list[Match]:
        """The files under ``root`` that the template matches, sorted by path (hidden files
        and folders are left out, as glob leaves them)."""
        candidates = set()
        for pattern in self._globs():
            for name in glob.glob(pattern, root_dir=root, recursive=True):
                candidates.add(name.replace(os.sep, "/"))
        found = (self.match(name) for name in sorted(candidates) if (root / name).is_file())
        return [match for match in found if match is not None]

    def path_for(self, language: str | None, file_name: str) -> str:
        """Where the file ``file_name`` in ``language`` goes, relative to the root."""
        if unsafe_relative_path(file_name):
            raise TemplateError(f"unsafe file name {file_name!r}")
        if not self.multilingual:
            if language is None:
                raise TemplateError(f"{self.text!r} needs a language")
            check_language(language)
        return "".join(
            (language or "") if part == LANGUAGE else file_name if part == FILE_NAME else part
            for part in self._parts
        )

    def export_entry(self, name: str, extension: str) -> tuple[str | None, str]:
        """The language (None for a multilingual format) and the text that fills ``{fileName}``
        for an entry of the server's export archive. Entries are named ``{language}/{name}``
        (``{name}`` for a multilingual format), the name being the project file's with the
        extension added unless it already ends with it. The server's import names a file by
        what its path has at ``{fileName}``, less the extension when the template ends with
        ``{fileName}``; so a template ending with ``{fileName}`` is filled with the entry's
        name as it is, any other (``locales/{language}/{fileName}.json``,
        ``translations/{fileName}.{language}.xlf``) with the name less its extension.
        TemplateError for a name that is absolute, has '..' or does not fit that shape."""
        if unsafe_relative_path(name):
            raise TemplateError(f"the archive entry {name!r} points outside the folder")
        language = None
        if not self.multilingual:
            language, _, name = name.partition("/")
            if not name:
                raise TemplateError(f"the archive entry {language!r} has no language folder")
            check_language(language)
        if not self.text.endswith(FILE_NAME) and name.endswith(extension) and name != extension:
            name = name[: -len(extension)]
        return language, name

    def path_for_export_entry(self, name: str, extension: str) -> str:
        """Where an entry of the server's export archive goes (see ``export_entry``)."""
        return self.path_for(*self.export_entry(name, extension))
