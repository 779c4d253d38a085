"""Export: read a project's selection with a few set-based queries and hand the rows to
the writers. The ETag names the data version, so an unchanged project answers 304."""

import hashlib
from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy import select

from loko.auth import policy
from loko.errors import BadRequest
from loko.exports import writers
from loko.extensions import db
from loko.files.models import FileRecord
from loko.languages.models import ProjectLanguage
from loko.projects.models import Project
from loko.translations.models import Translation, TranslationValue

PO_MIMETYPE = "text/x-gettext-translation"


@dataclass(frozen=True)
class ExportQuery:
    format: str = "json"
    zip: bool = False
    languages: tuple[str, ...] | None = None
    file_names: tuple[str, ...] | None = None
    inherit: bool = True


@dataclass(frozen=True)
class Export:
    body: bytes
    mimetype: str
    filename: str | None


def authorize_export(actor, project_id: str, query: ExportQuery) -> tuple[Project, str]:
    """Check access and compute the strong ETag of this export (without reading the data)."""
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
    return project, '"' + hashlib.sha256(fingerprint.encode()).hexdigest()[:32] + '"'


def _filtered(query, language_column, file_column, export_query: ExportQuery):
    if language_column is not None and export_query.languages is not None:
        query = query.where(language_column.in_(export_query.languages))
    if export_query.file_names is not None:
        query = query.where(file_column.in_(export_query.file_names))
    return query


def _value_rows(project_id: str, export_query: ExportQuery, language: str | None = None):
    query = (
        select(TranslationValue.language_code, Translation.file_name, Translation.key, TranslationValue.value)
        .join(Translation, Translation.id == TranslationValue.translation_id)
        .where(TranslationValue.project_id == project_id, Translation.deleted_at.is_(None))
    )
    if language is not None:
        query = query.where(TranslationValue.language_code == language)
        return db.session.execute(_filtered(query, None, Translation.file_name, export_query))
    return db.session.execute(
        _filtered(query, TranslationValue.language_code, Translation.file_name, export_query)
    )


def collect(project: Project, export_query: ExportQuery):
    """The selection as ``(document, keys_by_file, records)``.

    ``document`` is ``{language: {file: {key: value}}}`` including linked-project values
    inherited under the target language; ``records`` are the ``(language, file)`` pairs
    that exist, each a file in a language even when it has no value yet.
    """
    document = defaultdict(lambda: defaultdict(dict))
    keys_by_file = defaultdict(set)
    records = set(
        db.session.execute(
            _filtered(
                select(FileRecord.language_code, FileRecord.file_name).where(
                    FileRecord.project_id == project.id
                ),
                FileRecord.language_code,
                FileRecord.file_name,
                export_query,
            )
        ).all()
    )
    for language, file_name, key, value in _value_rows(project.id, export_query):
        document[language][file_name][key] = value
    keys = _filtered(
        select(Translation.file_name, Translation.key).where(
            Translation.project_id == project.id, Translation.deleted_at.is_(None)
        ),
        None,
        Translation.file_name,
        export_query,
    )
    for file_name, key in db.session.execute(keys):
        keys_by_file[file_name].add(key)

    target = project.linked_language_target_code
    wanted = export_query.languages is None or target in export_query.languages
    if project.linked_project_id and export_query.inherit and wanted:
        own = document[target]
        for _language, file_name, key, value in _value_rows(
            project.linked_project_id, export_query, language=project.linked_language_code
        ):
            own[file_name].setdefault(key, value)
            keys_by_file[file_name].add(key)
            records.add((target, file_name))
    for language, file_name in records:
        document[language].setdefault(file_name, {})
    return document, keys_by_file, sorted(records)


def build_export(project: Project, export_query: ExportQuery) -> Export:
    """Render the export; BadRequest for a PO export that is not one file in one language."""
    document, keys_by_file, records = collect(project, export_query)
    slug = _slug(project.name)
    if export_query.format == "json" and not export_query.zip:
        return Export(writers.json_bytes(document), "application/json", None)
    if export_query.format == "json":
        entries = [
            (
                writers.entry_name(language, file_name, "json"),
                writers.json_bytes(document[language][file_name]),
            )
            for language, file_name in records
        ]
        return Export(writers.zip_bytes(entries), "application/zip", f"{slug}-json.zip")

    names = _language_names(project.id)
    revision = project.data_updated_at.strftime("%Y-%m-%d %H:%M+0000")

    def po(language, file_name):
        values = document[language][file_name]
        entries = [(key, values.get(key)) for key in sorted(keys_by_file[file_name] | values.keys())]
        return writers.po_bytes(language, names.get(language, language), project.name, revision, entries)

    if export_query.zip:
        entries = [(writers.entry_name(lang, name, "po"), po(lang, name)) for lang, name in records]
        return Export(writers.zip_bytes(entries), "application/zip", f"{slug}-po.zip")
    languages = export_query.languages or ()
    file_names = export_query.file_names or ()
    if len(languages) != 1 or len(file_names) != 1:
        raise BadRequest(
            "format=po without zip returns one catalog: pass exactly one `language` and one "
            "`fileName`, or set zip=true for all of them."
        )
    language, file_name = languages[0], file_names[0]
    filename = writers.entry_name(language, file_name, "po").replace("/", "-")
    return Export(po(language, file_name), PO_MIMETYPE, filename)


def _language_names(project_id: str) -> dict[str, str]:
    return dict(
        db.session.execute(
            select(ProjectLanguage.code, ProjectLanguage.name).where(ProjectLanguage.project_id == project_id)
        ).all()
    )


def _slug(name: str) -> str:
    slug = "".join(c if c.isascii() and c.isalnum() else "-" for c in name.lower()).strip("-")
    return slug or "project"
