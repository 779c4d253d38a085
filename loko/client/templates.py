"""Path templates: where a project's files are, relative to the configuration's folder, e.g.
``locales/{language}/{fileName}.json``.

``{language}`` is a language code within one folder or file name, written in its canonical
form (``pt-BR``); ``{locale}`` writes it as gettext and Java do (``pt_BR``) and ``{android}``
as Android's resource folders (``pt-rBR``, ``b+sr+Latn``). Each is read back as the canonical
code, so a repository keeps the layout it has. ``{fileName}`` is a file's name in Loko and
may span folders: it is the part of the path the template leaves
once its literal text (and so its extension) is taken away. The server reads a pushed
archive with the same rules, so a file pushed from a path is pulled back to that path.
"""

import glob
import os
import re
from dataclasses import dataclass
from pathlib import Path

from loko.languages.codes import (
    CODE_PLACEHOLDERS,
    canonical_code,
    code_for_path,
    code_in_path,
    code_pattern,
    code_placeholder,
)

LANGUAGE = "{language}"
FILE_NAME = "{fileName}"
PLACEHOLDER = re.compile(r"\{[^{}/]*\}")
PARTS = re.compile(r"(\{language\}|\{locale\}|\{android\}|\{fileName\})")


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
    """The canonical form of a language code (``pt_br`` -> ``pt-BR``); TemplateError for a
    code that is not one."""
    try:
        return canonical_code(code)
    except ValueError as error:
        raise TemplateError(str(error).rstrip(".")) from None


def has_language(text: str) -> bool:
    """True when a template holds the language in one of its forms."""
    return any(placeholder in text for placeholder in CODE_PLACEHOLDERS)


class PathTemplate:
    """One ``[[files]]`` path: finds local files, reads the language and file name out of a
    path, and places a file of the project at its path."""

    def __init__(self, text: str, multilingual: bool = False):
        self.text = text
        self.multilingual = multilingual
        self._check()
        self._parts = PARTS.split(text)
        self.pattern = self._regex()

    def _check(self) -> None:
        text = self.text
        unknown = sorted(set(PLACEHOLDER.findall(text)) - {*CODE_PLACEHOLDERS, FILE_NAME})
        if unknown:
            raise TemplateError(
                f"unknown placeholder {unknown[0]} in {text!r} (use {{fileName}} and {{language}}, "
                "{locale} or {android})"
            )
        try:
            self.placeholder = code_placeholder(text)
        except ValueError as error:
            raise TemplateError(str(error).rstrip(".")) from None
        if unsafe_relative_path(text):
            raise TemplateError(
                f"{text!r} must be a relative path with '/' between folders and no '.' or '..' folders"
            )
        if text.count(FILE_NAME) != 1:
            raise TemplateError(f"{text!r} must contain {FILE_NAME} once")
        if self.multilingual and self.placeholder:
            raise TemplateError(
                f"{text!r}: one file holds every language in this format, so no {self.placeholder}"
            )
        if not self.multilingual and not self.placeholder:
            raise TemplateError(f"{text!r} must contain {LANGUAGE} (or {{locale}}, {{android}})")

    def _regex(self) -> re.Pattern:
        pattern, named = [], False
        for part in self._parts:
            if part in CODE_PLACEHOLDERS:
                pattern.append("(?P=language)" if named else f"(?P<language>{code_pattern(part)})")
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
                "*" if part in CODE_PLACEHOLDERS else file_name if part == FILE_NAME else glob.escape(part)
                for part in self._parts
            ]
            patterns.append("".join(parts))
        return patterns

    def match(self, path: str) -> Match | None:
        """What ``path`` (relative, with '/') says, the language as its canonical code, or None
        when the template does not fit it (nor a path whose language is no known code)."""
        found = self.pattern.fullmatch(path)
        if found is None or unsafe_relative_path(found["fileName"]):
            return None
        language = found.groupdict().get("language")
        if language is not None:
            try:
                language = code_in_path(self.placeholder, language)
            except ValueError:
                return None
        return Match(path, language, found["fileName"])

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
            language = check_language(language)
        return "".join(
            code_for_path(part, language)
            if part in CODE_PLACEHOLDERS
            else file_name
            if part == FILE_NAME
            else part
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
            language = check_language(language)
        if not self.text.endswith(FILE_NAME) and name.endswith(extension) and name != extension:
            name = name[: -len(extension)]
        return language, name

    def path_for_export_entry(self, name: str, extension: str) -> str:
        """Where an entry of the server's export archive goes (see ``export_entry``)."""
        return self.path_for(*self.export_entry(name, extension))
