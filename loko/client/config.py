"""The pipeline's configuration: ``loko.toml`` (or ``.loko.yml``) in the current folder or
the nearest parent, then the environment (``LOKO_URL``, ``LOKO_PROJECT``, ``LOKO_API_KEY``),
then the command line, each overriding the one before. The API key belongs in the
environment: one found in a file is accepted with a warning, as files get committed.

``source_language`` is the language the keys are written in; every export the pipeline
asks for names it, so a bilingual file (XLIFF) keeps it as its source. Without it, the
pipeline reads the project's source language setting from the server.

Each ``[[files]]`` entry is a path template and a format. Entries of one format share the
project's files: a project file goes to the entry under whose path it
exists locally (in any language), and one found under no entry's path goes to the first
entry of its format.
"""

import ipaddress
import json
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from urllib.parse import urlsplit

import click
import yaml

from loko.client.formats import EXTENSIONS, FORMAT_NAMES, format_of_path, is_multilingual
from loko.client.templates import PathTemplate, TemplateError, check_language

TOML_NAME = "loko.toml"
YAML_NAME = ".loko.yml"
CONFIG_NAMES = (TOML_NAME, YAML_NAME)
KNOWN_SETTINGS = {"url", "project", "source_language", "files", "api_key"}


class ConfigError(click.ClickException):
    """The configuration is missing, unreadable or incomplete: a usage error (exit 2)."""

    exit_code = 2


@dataclass(frozen=True)
class FileSet:
    """One ``[[files]]`` entry: where files of one format are (see the module's note on
    entries that share a format)."""

    path: str
    format: str

    @cached_property
    def template(self) -> PathTemplate:
        return PathTemplate(self.path, multilingual=is_multilingual(self.format))

    @property
    def extension(self) -> str:
        return EXTENSIONS[self.format]


@dataclass(frozen=True)
class Config:
    root: Path
    url: str
    project: str
    api_key: str
    files: tuple[FileSet, ...]
    source_language: str | None = None
    source: Path | None = None


def find_config(start: Path) -> Path | None:
    """The first ``loko.toml`` or ``.loko.yml`` in ``start`` or its parents."""
    for folder in (start, *start.parents):
        for name in CONFIG_NAMES:
            candidate = folder / name
            if candidate.is_file():
                return candidate
    return None


def read_config_file(path: Path) -> dict:
    """The settings of a configuration file; ConfigError when it does not parse."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ConfigError(f"cannot read {path}: {error.strerror}") from None
    try:
        if path.suffix == ".toml":
            settings = tomllib.loads(data.decode("utf-8"))
        else:
            settings = yaml.safe_load(data) or {}
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, yaml.YAMLError) as error:
        raise ConfigError(f"{path} does not parse: {error}") from None
    if not isinstance(settings, dict):
        raise ConfigError(
            f"{path} must hold settings (url, project, [[files]]), not {type(settings).__name__}"
        )
    return settings


def parse_file_sets(entries, where: str) -> tuple[FileSet, ...]:
    if not isinstance(entries, list) or not entries:
        raise ConfigError(f"{where}: add at least one [[files]] entry with a path (and a format)")
    file_sets = []
    for number, entry in enumerate(entries, 1):
        label = f"{where}: files entry {number}"
        if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
            raise ConfigError(f"{label} needs a path, e.g. locales/{{language}}/{{fileName}}.json")
        path, format_name = entry["path"], entry.get("format") or format_of_path(entry["path"])
        if not isinstance(format_name, str) or format_name not in EXTENSIONS:
            raise ConfigError(f"{label}: format {format_name!r} is not one of {', '.join(FORMAT_NAMES)}")
        try:
            PathTemplate(path, multilingual=is_multilingual(format_name))
        except TemplateError as error:
            raise ConfigError(f"{label}: {error}") from None
        file_sets.append(FileSet(path, format_name))
    return tuple(file_sets)


def check_url(url: str) -> str:
    """The server's address without a trailing slash; ConfigError unless it is http(s)."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"the server URL {url!r} must start with https:// (or http://) and name a host")
    return url.strip().rstrip("/")


def is_cleartext_remote(url: str) -> bool:
    """True for an http:// URL to a host other than this machine: the API key would cross
    the network unencrypted."""
    parts = urlsplit(url)
    if parts.scheme != "http":
        return False
    host = (parts.hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return False
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:
        return True


def _setting(settings: dict, name: str, where: str) -> str | None:
    value = settings.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ConfigError(f"{where}: {name} must be a string")
    return value


def _first(*values: str | None) -> str | None:
    return next((value for value in values if value), None)


def load_config(
    *,
    cwd: Path,
    env: Mapping[str, str],
    warn: Callable[[str], None],
    config_file: Path | None = None,
    url: str | None = None,
    project: str | None = None,
    api_key: str | None = None,
) -> Config:
    """The configuration in force: the file (given, or found from ``cwd`` up), overridden by
    the environment, overridden by the command line. ConfigError for anything missing."""
    source = config_file or find_config(cwd)
    if source is None:
        raise ConfigError(f"no {TOML_NAME} or {YAML_NAME} in {cwd} or its parents: run `loko init`")
    source = source.resolve()
    where = source.name
    settings = read_config_file(source)
    for unknown in sorted(set(settings) - KNOWN_SETTINGS):
        warn(f"{where}: unknown setting {unknown!r} ignored")
    file_key = _setting(settings, "api_key", where)
    if file_key:
        warn(f"{where} holds an API key: keep keys out of files that get committed, set LOKO_API_KEY")
    url = _first(url, env.get("LOKO_URL"), _setting(settings, "url", where))
    project = _first(project, env.get("LOKO_PROJECT"), _setting(settings, "project", where))
    api_key = _first(api_key, env.get("LOKO_API_KEY"), file_key)
    if not url:
        raise ConfigError(f"no server URL: set url in {where}, LOKO_URL or --url")
    if not project:
        raise ConfigError(f"no project: set project in {where}, LOKO_PROJECT or --project")
    if not api_key:
        raise ConfigError("no API key: set LOKO_API_KEY (a key of the project, made on its API keys page)")
    source_language = _setting(settings, "source_language", where)
    if source_language:
        try:
            source_language = check_language(source_language)
        except TemplateError as error:
            raise ConfigError(f"{where}: source_language: {error}") from None
    return Config(
        root=source.parent,
        url=check_url(url),
        project=project.strip(),
        api_key=api_key.strip(),
        files=parse_file_sets(settings.get("files"), where),
        source_language=source_language,
        source=source,
    )


def _toml_string(value: str) -> str:
    # JSON's string escapes are a subset of TOML's basic string escapes.
    return json.dumps(value, ensure_ascii=False)


def config_toml(url: str, project: str, source_language: str | None, files: list[FileSet]) -> str:
    """The text of a ``loko.toml``; it never holds an API key."""
    lines = [
        "# Loko: `loko push` sends these files to the project, `loko pull` writes them back.",
        "# The API key comes from the environment (LOKO_API_KEY), never from this file.",
        f"url = {_toml_string(url)}",
        f"project = {_toml_string(project)}",
    ]
    if source_language:
        lines.append(f"source_language = {_toml_string(source_language)}")
    for file_set in files:
        lines += [
            "",
            "[[files]]",
            f"path = {_toml_string(file_set.path)}",
            f"format = {_toml_string(file_set.format)}",
        ]
    return "\n".join(lines) + "\n"
