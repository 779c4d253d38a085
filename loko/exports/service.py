"""Export: read a project's selection one language at a time (a few set-based queries, all
in one snapshot) and stream what the writers make of it, so memory stays flat however big
the project is. The ETag names the data version: an unchanged project answers 304, and a
small export is served again from the per-process cache.
"""

import hashlib
import itertools
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

import orjson
from sqlalchemy import select

from loko.auth import policy
from loko.database import read_snapshot
from loko.errors import BadRequest
from loko.exports import writers
from loko.exports.cache import ExportCache
from loko.extensions import db
from loko.files.models import FileRecord
from loko.languages.models import ProjectLanguage
from loko.projects.models import Project
from loko.translations.models import Translation, TranslationValue

PO_MIMETYPE = "text/x-gettext-translation"
ROWS_PER_FETCH = 10_000


@dataclass(frozen=True)
class ExportQuery:
    format: str = "json"
    zip: bool = False
    languages: tuple[str, ...] | None = None
    file_names: tuple[str, ...] | None = None
    inherit: bool = True


@dataclass(frozen=True)
class Export:
    """``body`` is the whole export (bytes) or its chunks (an iterator of bytes)."""

    body: bytes | Iterator[bytes]
    mimetype: str
    filename: str | None


@dataclass(frozen=True)
class Link:
    """The inheritance in force for this export: ``target`` inherits ``source`` of ``project_id``."""

    project_id: str
    source: str
    target: str


def authorize_export(actor, project_id: str, query: ExportQuery) -> tuple[Project, str]:
    """Check access and compute the strong ETag of this export (without reading the data).

    The export's reads share one snapshot with this check, so the body matches the ETag.
    """
    read_snapshot()
    project, _ = policy.authorize(actor, project_id, policy.VIEW_TRANSLATIONS)
    linked_version = None
    if project.linked_project_id and query.inherit:
        linked_version = db.session.execute(
            select(Project.data_version).where(Project.id == project.linked_project_id)
        ).scalar_one_or_none()
    fingerprint = repr(
        (
            project.id,
            project.data_version,
            project.name,
            linked_version,
            query.format,
            query.zip,
            query.languages,
            query.file_names,
            query.inherit,
        )
    )
    return project, hashlib.sha256(fingerprint.encode()).hexdigest()[:32]


def _link(project: Project, query: ExportQuery) -> Link | None:
    if not (project.linked_project_id and query.inherit):
        return None
    if query.languages is not None and project.linked_language_target_code not in query.languages:
        return None
    return Link(project.linked_project_id, project.linked_language_code, project.linked_language_target_code)


def _in_files(statement, column, query: ExportQuery):
    if query.file_names is None:
        return statement
    return statement.where(column.in_(query.file_names))


def files_by_language(project: Project, query: ExportQuery, link: Link | None) -> dict[str, list[str]]:
    """The ``(language, file)`` pairs of the selection: the file records (a file in a language
    exists even before it has values), plus the linked project's files under the target."""
    records = _in_files(
        select(FileRecord.language_code, FileRecord.file_name).where(FileRecord.project_id == project.id),
        FileRecord.file_name,
        query,
    )
    if query.languages is not None:
        records = records.where(FileRecord.language_code.in_(query.languages))
    pairs = defaultdict(set)
    for language, file_name in db.session.execute(records):
        pairs[language].add(file_name)
    if link is not None:
        inherited = _in_files(
            select(FileRecord.file_name).where(
                FileRecord.project_id == link.project_id, FileRecord.language_code == link.source
            ),
            FileRecord.file_name,
            query,
        )
        pairs[link.target].update(db.session.execute(inherited).scalars())
    return {language: sorted(pairs[language]) for language in sorted(pairs)}


def _values_in(project_id: str, language: str, query: ExportQuery):
    statement = (
        select(Translation.file_name, Translation.key, TranslationValue.value)
        .join(Translation, Translation.id == TranslationValue.translation_id)
        .where(
            TranslationValue.project_id == project_id,
            TranslationValue.language_code == language,
            Translation.deleted_at.is_(None),
        )
    )
    # Through the connection, not the ORM session, which would buffer every row first;
    # fetched in batches, which costs far less than row by row.
    result = db.session.connection().execute(_in_files(statement, Translation.file_name, query))
    return itertools.chain.from_iterable(result.partitions(ROWS_PER_FETCH))


def language_values(project: Project, language: str, query: ExportQuery, link: Link | None):
    """``{file: {key: value}}`` of one language; inherited values fill only the gaps."""
    by_file = defaultdict(dict)
    for file_name, key, value in _values_in(project.id, language, query):
        by_file[file_name][key] = value
    if link is not None and language == link.target:
        for file_name, key, value in _values_in(link.project_id, link.source, query):
            by_file[file_name].setdefault(key, value)
    return by_file


def keys_by_file(project: Project, query: ExportQuery) -> dict[str, set[str]]:
    """Every active key of each selected file: a PO catalog lists untranslated keys too."""
    statement = _in_files(
        select(Translation.file_name, Translation.key).where(
            Translation.project_id == project.id, Translation.deleted_at.is_(None)
        ),
        Translation.file_name,
        query,
    )
    keys = defaultdict(set)
    for file_name, key in db.session.connection().execute(statement):
        keys[file_name].add(key)
    return keys


def _json_document(project, query, link, layout) -> Iterator[bytes]:
    """The spec's ``{language: {file: {key: value}}}``, keys sorted, one language at a time."""
    yield b"{"
    for index, (language, files) in enumerate(layout.items()):
        values = language_values(project, language, query, link)
        yield (b"," if index else b"") + orjson.dumps(language) + b":{"
        yield b",".join(
            orjson.dumps(name) + b":" + writers.json_bytes(values.get(name, {})) for name in files
        )
        yield b"}"
    yield b"}"


def _zip_entries(project, query, link, layout) -> Iterator[tuple[str, bytes]]:
    if query.format == "json":
        for language, files in layout.items():
            values = language_values(project, language, query, link)
            for name in files:
                yield writers.entry_name(language, name, "json"), writers.json_bytes(values.get(name, {}))
        return
    po = _po_writer(project, query)
    for language, files in layout.items():
        values = language_values(project, language, query, link)
        for name in files:
            yield writers.entry_name(language, name, "po"), po(language, name, values.get(name, {}))


def _po_writer(project: Project, query: ExportQuery):
    keys = keys_by_file(project, query)
    names = dict(
        db.session.execute(
            select(ProjectLanguage.code, ProjectLanguage.name).where(ProjectLanguage.project_id == project.id)
        ).all()
    )
    revision = project.data_updated_at.strftime("%Y-%m-%d %H:%M+0000")

    def po(language: str, file_name: str, values: dict) -> bytes:
        entries = [(key, values.get(key)) for key in sorted(keys.get(file_name, set()) | values.keys())]
        return writers.po_bytes(language, names.get(language, language), project.name, revision, entries)

    return po


def build_export(project: Project, query: ExportQuery, etag: str, cache: ExportCache) -> Export:
    """The export for ``query``: from the cache when this ETag was served before, otherwise
    streamed (and kept when small). BadRequest for a PO catalog that is not one file in one
    language."""
    slug = _slug(project.name)
    if query.format == "po" and not query.zip:
        return _single_po(project, query)
    if query.zip:
        mimetype, filename = "application/zip", f"{slug}-{query.format}.zip"
    else:
        mimetype, filename = "application/json", None
    cached = cache.get(etag)
    if cached is not None:
        return Export(cached, mimetype, filename)
    link = _link(project, query)
    layout = files_by_language(project, query, link)
    if query.zip:
        chunks = writers.zip_stream(_zip_entries(project, query, link, layout))
    else:
        chunks = _json_document(project, query, link, layout)
    return Export(cache.keep(etag, (project.id, query), chunks), mimetype, filename)


def _single_po(project: Project, query: ExportQuery) -> Export:
    languages, file_names = query.languages or (), query.file_names or ()
    if len(languages) != 1 or len(file_names) != 1:
        raise BadRequest(
            "format=po without zip returns one catalog: pass exactly one `language` and one "
            "`fileName`, or set zip=true for all of them."
        )
    language, file_name = languages[0], file_names[0]
    values = language_values(project, language, query, _link(project, query))
    body = _po_writer(project, query)(language, file_name, values.get(file_name, {}))
    return Export(body, PO_MIMETYPE, writers.entry_name(language, file_name, "po").replace("/", "-"))


def _slug(name: str) -> str:
    slug = "".join(c if c.isascii() and c.isalnum() else "-" for c in name.lower()).strip("-")
    return slug or "project"
