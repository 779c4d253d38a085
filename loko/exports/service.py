"""Export: read a project's selection one file of one language at a time (one index-driven
query each, all in one snapshot) and stream what the writers make of it, so memory stays
flat however big the project is. The ETag names the data version read in that same
snapshot (``authorize_export``; a streamed body is read in its request's transaction, see
``CarriedSession``), so one ETag always names one body: an unchanged project answers 304,
and a small export is served again from the per-process cache. A request is given an
older body than its own snapshot's only when it says it accepts one (``max_stale``). A PO catalog's
revision date is the last change of that file in that language (its values' dates are read
with the values), so that a change elsewhere leaves its bytes as they were.
"""

import hashlib
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import lru_cache

import orjson
from sqlalchemy import (
    Integer,
    Row,
    ScalarSelect,
    Text,
    bindparam,
    cast,
    func,
    literal_column,
    null,
    or_,
    select,
)
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import aliased
from sqlalchemy.sql.functions import FunctionElement

from loko.audit import service as audit
from loko.auth import policy
from loko.auth.actors import ApiKeyActor
from loko.database import new_snapshot, read_snapshot, stream_batches
from loko.errors import BadRequest, NotFound
from loko.exports import writers
from loko.exports.cache import ExportCache, KeptMembers, at_least
from loko.exports.writers import Deflated
from loko.extensions import db
from loko.files.models import FileRecord, FileVersion, language_version_name, wide_version_name
from loko.formats import Entry, Target
from loko.formats.registry import format_module
from loko.languages.models import ProjectLanguage
from loko.languages.service import progress_counts
from loko.projects.models import Project
from loko.projects.service import Link, link_of
from loko.releases.service import release_moment
from loko.tags.filters import NO_TAGS, TagFilter
from loko.translations import timeline
from loko.translations.models import REVIEWED, Translation, TranslationValue
from loko.translations.queries import source_language as source_language_of
from loko.translations.timeline import Moment

PO_MIMETYPE = "text/x-gettext-translation"
ROWS_PER_FETCH = 10_000


@dataclass(frozen=True)
class ExportQuery:
    format: str = "json"
    zip: bool = False
    languages: tuple[str, ...] | None = None
    file_names: tuple[str, ...] | None = None
    inherit: bool = True
    source_language: str | None = None
    # Only reviewed values: any other is left out as if missing (the link still fills it).
    reviewed_only: bool = False
    # A past state: ``asOf`` (an instant or an operation id) or a release's name, as asked;
    # ``moment`` once resolved (``authorize``): the export reads the history as of then.
    as_of: str | None = None
    release: str | None = None
    moment: Moment | None = None
    # Only the project's own keys with every tag of ``tags.all_of`` and none of
    # ``tags.none_of``; a key only the linked project has carries no tag here.
    tags: TagFilter = NO_TAGS


def export_query(arguments: dict) -> ExportQuery:
    """The ExportQuery of the query parameters as ``ExportQuerySchema`` loads them."""
    return ExportQuery(
        format=arguments["format"],
        zip=arguments["zip"],
        languages=arguments.get("language"),
        file_names=arguments.get("fileName"),
        inherit=arguments["inherit"],
        source_language=arguments.get("sourceLanguage"),
        reviewed_only=arguments.get("state") == REVIEWED,
        as_of=arguments.get("asOf"),
        release=arguments.get("release"),
        tags=TagFilter.from_query(arguments),
    )


@dataclass(frozen=True)
class Export:
    """``body`` is the whole export (bytes) or its chunks (an iterator of bytes); ``etag``
    names that body (an older version's while a newer one is being built)."""

    body: bytes | Iterator[bytes]
    mimetype: str
    filename: str | None
    etag: str


LINKED = aliased(Project)


def files_version(file_name_parameters) -> ScalarSelect:
    """The highest ``file_versions`` version of the project's files named by
    ``file_name_parameters`` (bound parameters, or one expanding one), NULL when none has
    one."""
    return (
        select(func.max(FileVersion.version))
        .where(FileVersion.project_id == Project.id, FileVersion.file_name.in_(file_name_parameters))
        .scalar_subquery()
    )


class greatest(FunctionElement):
    """The greatest of its arguments (none of them NULL): ``GREATEST``, ``MAX`` on SQLite."""

    type = Integer()
    inherit_cache = True


@compiles(greatest)
def _greatest(element, compiler, **kw) -> str:
    return f"GREATEST({compiler.process(element.clauses, **kw)})"


@compiles(greatest, "sqlite")
def _greatest_on_sqlite(element, compiler, **kw) -> str:
    return f"MAX({compiler.process(element.clauses, **kw)})"


def _version_row(name) -> ScalarSelect:
    return (
        select(FileVersion.version)
        .where(FileVersion.project_id == Project.id, FileVersion.file_name == name)
        .scalar_subquery()
    )


@lru_cache(maxsize=64)
def language_files_version(files: int, sides: int):
    """The version of some languages of ``files`` files (``language_version_parameters``:
    ``file_0``..., ``wide_0``... and ``side_0``...), 0 when none has one: the greatest of
    each file's wide row (its own row when it has none) and of the languages' rows. A write
    to another language of those files leaves it as it was. Each row is read by the primary
    key, whatever the statistics."""
    none = literal_column("0")
    versions = [
        func.coalesce(_version_row(bindparam(f"wide_{n}")), _version_row(bindparam(f"file_{n}")), none)
        for n in range(files)
    ]
    versions += [func.coalesce(_version_row(bindparam(f"side_{n}")), none) for n in range(sides)]
    return greatest(*versions, none)


def language_version_parameters(query: "ExportQuery") -> dict[str, str] | None:
    """The parameters of ``language_files_version`` for an export of named files in named
    languages, or None when it is named by its files' own rows alone: an export of every
    language or of the whole project, of a format that also holds the source language's
    values, or of reviewed values only (a write to the source language's values sends the
    other languages' to review). A file whose wide row would be too long has its own in its
    place; a language row too long cannot be there (its changes stamp the wide row)."""
    if query.languages is None or query.file_names is None or not _by_language(query):
        return None
    parameters, sides = {}, []
    for n, file_name in enumerate(query.file_names):
        parameters[f"file_{n}"] = file_name
        parameters[f"wide_{n}"] = wide_version_name(file_name) or file_name
        sides += [language_version_name(file_name, code) for code in query.languages]
    sides = [name for name in sides if name is not None]
    return parameters | {f"side_{n}": name for n, name in enumerate(sides)}


def _by_language(query: "ExportQuery") -> bool:
    """Whether one language's file of ``query`` reads that language's values and nothing of
    another language: not in a bilingual format (the source language's values too), nor of
    reviewed values only (their states change with the source language's values)."""
    return query.format not in BILINGUAL and not query.reviewed_only


def language_counts(parameters: dict[str, str]) -> tuple[int, int]:
    """``(files, sides)`` of ``language_version_parameters``."""
    files = sum(1 for name in parameters if name.startswith("file_"))
    return files, len(parameters) - 2 * files


# What an export needs of its project, with the linked project's data version: one
# small query, as the 304 path runs it on every request. An export of named files reads
# their versions too (``EXPORTED_FILES``).
EXPORTED_PROJECT = (
    select(
        Project.id,
        Project.name,
        Project.data_version,
        Project.created_at,
        Project.linked_project_id,
        Project.linked_language_code,
        Project.linked_language_target_code,
        LINKED.data_version.label("linked_data_version"),
        Project.shared_version,
        Project.scoped_version,
        null().label("files_version"),
    )
    .outerjoin(LINKED, LINKED.id == Project.linked_project_id)
    .where(Project.id == bindparam("project_id"))
)
EXPORTED_FILES = EXPORTED_PROJECT.with_only_columns(
    *list(EXPORTED_PROJECT.selected_columns)[:-1],
    files_version(bindparam("file_names", expanding=True)).label("files_version"),
    maintain_column_froms=True,
)


@lru_cache(maxsize=64)
def exported_languages(files: int, sides: int):
    """``EXPORTED_PROJECT`` with the version of some languages of named files
    (``language_files_version``)."""
    return EXPORTED_PROJECT.with_only_columns(
        *list(EXPORTED_PROJECT.selected_columns)[:-1],
        language_files_version(files, sides).label("files_version"),
        maintain_column_froms=True,
    )


def exported_project(project_id: str, query: ExportQuery) -> Row | None:
    """The project's ``EXPORTED_PROJECT`` row (``EXPORTED_FILES`` for named files,
    ``exported_languages`` for named files in named languages) in the session's snapshot;
    None when there is no such project."""
    statement, parameters = EXPORTED_PROJECT, {"project_id": project_id}
    languages = language_version_parameters(query)
    if languages is not None:
        statement = exported_languages(*language_counts(languages))
        parameters |= languages
    elif query.file_names is not None:
        statement, parameters["file_names"] = EXPORTED_FILES, list(query.file_names)
    return db.session.connection().execute(statement, parameters).one_or_none()


def authorize_export(actor, project_id: str, query: ExportQuery) -> tuple[Row, str]:
    """Check access and compute the strong ETag of this export (without reading the data);
    returns the project's ``EXPORTED_PROJECT`` row and the ETag.

    The export's reads share one snapshot with this check, so the body matches the ETag.
    """
    read_snapshot()
    policy.require_permission(actor, project_id, policy.VIEW_TRANSLATIONS)
    project = exported_project(project_id, query)
    if project is None:
        raise NotFound(policy.PROJECT_NOT_FOUND)
    return project, export_etag(project, query)


def authorize(actor, project_id: str, query: ExportQuery) -> tuple[Row, ExportQuery, str]:
    """``authorize_export``, with the past state the query asks for (``asOf`` or ``release``)
    resolved into its ``moment``: returns the project's row, the query and the ETag.
    BadRequest for both asked at once, for reviewed values only of a past state (the history
    keeps no review states), and as ``timeline.resolve_moment`` and the releases decide."""
    project, etag = authorize_export(actor, project_id, query)
    if query.as_of is None and query.release is None:
        return project, query, etag
    if query.as_of is not None and query.release is not None:
        raise BadRequest("asOf: ask for a moment or for a release, not both.")
    if query.reviewed_only:
        raise BadRequest("state: reviewed values only cannot be exported as of a past moment.")
    if query.release is not None:
        moment = release_moment(project_id, query.release)
    else:
        moment = timeline.resolve_moment(project_id, project.created_at, query.as_of)
    query = replace(query, moment=moment)
    return project, query, export_etag(project, query)


def selection_version(project, query: ExportQuery) -> int:
    """The data version the selection of ``query`` was last changed at: the project's data
    version for the whole project; for named files, the later of the last shared change
    (see ``bump_data_version``) and the last change of one of those files. It grows with
    every change to what such an export reads, and only then."""
    if query.file_names is None:
        return project.data_version
    confined = project.data_version == project.scoped_version
    shared = project.shared_version if confined else project.data_version
    return max(shared, project.files_version or 0)


def export_etag(project, query: ExportQuery) -> str:
    """The strong ETag of an export: what its body depends on, which is the data version of
    its selection (``selection_version``), the project's name, the linked project's data
    version when it is inherited, and the query. ``project`` has ``id``, ``name``,
    ``data_version``, ``shared_version``, ``scoped_version``, ``files_version`` (of the
    query's files) and ``linked_data_version``."""
    linked_version = project.linked_data_version if query.inherit else None
    if query.moment is not None:
        # A past state's body depends on the moment alone (and on the project's name and
        # the query): the history up to then does not change.
        version, linked_version = ("as-of", query.moment.stamp, query.moment.entry_id), None
    else:
        version = selection_version(project, query)
    fingerprint = repr(
        (
            project.id,
            version,
            project.name,
            linked_version,
            query.format,
            query.zip,
            query.languages,
            query.file_names,
            query.inherit,
            query.source_language,
            query.reviewed_only,
            *((query.tags.all_of, query.tags.none_of) if query.tags else ()),
        )
    )
    return hashlib.sha256(fingerprint.encode()).hexdigest()[:32]


def _link(project: Row, query: ExportQuery) -> Link | None:
    """The inheritance in force for this export."""
    link = link_of(project) if query.inherit else None
    if link is None or (query.languages is not None and link.target not in query.languages):
        return None
    return link


def _in_files(statement, column, query: ExportQuery):
    if query.file_names is None:
        return statement
    return statement.where(column.in_(query.file_names))


def files_by_language(project: Row, query: ExportQuery, link: Link | None) -> dict[str, list[str]]:
    """The ``(language, file)`` pairs of the selection: the file records (a file in a language
    exists even before it has values), plus the linked project's files under the target. Of
    a past state: the pairs its values were in, and the records of its files in the
    languages it had values in."""
    if query.moment is not None:
        return _past_files(project, query, link)
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


def with_past_rows(project: Row, query: ExportQuery) -> ExportQuery:
    """``query`` with its past state's values read (once, for its layout and its files)."""
    if query.moment is None or query.moment.rows is not None:
        return query
    rows = timeline.state_rows(project.id, query.moment.at)
    return replace(query, moment=replace(query.moment, rows=rows))


def _past_rows(query: ExportQuery):
    """The rows of ``query``'s past state in its languages and files."""
    languages = set(query.languages) if query.languages is not None else None
    files = set(query.file_names) if query.file_names is not None else None
    for row in query.moment.rows:
        if (languages is None or row[0] in languages) and (files is None or row[1] in files):
            yield row


def _past_files(project: Row, query: ExportQuery, link: Link | None) -> dict[str, list[str]]:
    query = with_past_rows(project, query)
    parameters = {"project_id": project.id, "at": query.moment.at}
    if query.file_names is not None:
        parameters["file_names"] = list(query.file_names)
    pairs, had = defaultdict(set), set()
    for language, file_name, _key, _value, _written, active in _past_rows(query):
        had.add((language, file_name))
        if active:
            pairs[language].add(file_name)
    # A file's version in a language stays while its keys are in the trash (their values
    # with them), until it is deleted: kept when its record is still there.
    records = select(FileRecord.language_code, FileRecord.file_name).where(
        FileRecord.project_id == project.id
    )
    for language, file_name in db.session.execute(records):
        if (language, file_name) in had:
            pairs[language].add(file_name)
    if link is not None:
        inherited = timeline.values_statement(True, query.file_names is not None).subquery()
        linked = {**parameters, "project_id": link.project_id, "languages": [link.source]}
        pairs[link.target].update(
            db.session.execute(select(inherited.c.file_name).distinct(), linked).scalars()
        )
    return {language: sorted(pairs[language]) for language in sorted(pairs)}


# Read a few languages a query: each active key of the selection (through
# uq_translations_active_key) and its values in those languages by the values' primary key
# (translation_id, language_code), a plan no planner estimate can make slow. A value's own
# project_id is left out on purpose: given it, a PostgreSQL planner without fresh statistics
# (a project just seeded or imported) read every value of the project once per key. One
# query a file cost ~0.5 ms a file on PostgreSQL; one query for the whole project would hold
# it all in memory at once (PostgreSQL's client keeps a whole result).
ROWS_PER_QUERY = 100_000
VALUE_ROWS = (
    select(TranslationValue.language_code, Translation.file_name, Translation.key, TranslationValue.value)
    .select_from(Translation)
    .join(
        TranslationValue,
        (TranslationValue.translation_id == Translation.id)
        & TranslationValue.language_code.in_(bindparam("languages", expanding=True)),
    )
    .where(Translation.project_id == bindparam("project_id"), Translation.deleted_at.is_(None))
)
VALUE_ROWS_IN_FILES = VALUE_ROWS.where(Translation.file_name.in_(bindparam("file_names", expanding=True)))
# On SQLite, for a whole project, reading the batch's values in the order of their (project,
# language) index and each one's key by primary key takes two thirds of the time of going
# key by key: SQLite's planner has no statistics to go wrong with. With a file filter the
# keys come first, as only the file's keys are read.
VALUE_ROWS_BY_LANGUAGE = (
    select(TranslationValue.language_code, Translation.file_name, Translation.key, TranslationValue.value)
    .select_from(TranslationValue)
    .join(Translation, Translation.id == TranslationValue.translation_id)
    .where(
        TranslationValue.project_id == bindparam("project_id"),
        TranslationValue.language_code.in_(bindparam("languages", expanding=True)),
        Translation.deleted_at.is_(None),
    )
)
KEY_ROWS = select(Translation.file_name, Translation.key).where(
    Translation.project_id == bindparam("project_id"), Translation.deleted_at.is_(None)
)
KEY_ROWS_IN_FILES = KEY_ROWS.where(Translation.file_name.in_(bindparam("file_names", expanding=True)))
# For the formats that date a file by its last change: the same value rows, each followed by
# the value's updated_at, and the latest creation of each file's active keys. The timestamps
# come as text, cast by the database (SQLite's stored text, naive UTC; PostgreSQL's with the
# session's offset): a third of the cost of a timezone-aware datetime a row, and in time
# order when compared, except within the hour repeated when the session's clock goes back.
UPDATED_AT = cast(TranslationValue.updated_at, Text)
LATEST_KEYS = (
    select(Translation.file_name, cast(func.max(Translation.created_at), Text))
    .where(Translation.project_id == bindparam("project_id"), Translation.deleted_at.is_(None))
    .group_by(Translation.file_name)
)
LATEST_KEYS_IN_FILES = LATEST_KEYS.where(Translation.file_name.in_(bindparam("file_names", expanding=True)))


def _rows(statement, in_files, parameters: dict, file_names: tuple[str, ...] | None):
    """Batches of tuples of ``statement`` (or of its ``in_files`` variant for a file selection)."""
    if file_names is not None:
        statement, parameters = in_files, {**parameters, "file_names": list(file_names)}
    return stream_batches(statement, parameters, ROWS_PER_FETCH)


def _reads_by_language(file_names: tuple[str, ...] | None) -> bool:
    return file_names is None and db.engine.dialect.name == "sqlite"


def _value_rows(parameters: dict, file_names: tuple[str, ...] | None, *extra, reviewed: bool = False):
    """Batches of ``(language, file_name, key, value)`` of a project's active keys, each row
    followed by the ``extra`` columns (``UPDATED_AT`` for the formats that date a file);
    with ``reviewed``, of its reviewed values only."""

    def with_extra(statement):
        if reviewed:
            statement = statement.where(TranslationValue.state == REVIEWED)
        return statement.add_columns(*extra) if extra else statement

    if _reads_by_language(file_names):
        return stream_batches(with_extra(VALUE_ROWS_BY_LANGUAGE), parameters, ROWS_PER_FETCH)
    batches = _rows(with_extra(VALUE_ROWS), with_extra(VALUE_ROWS_IN_FILES), parameters, file_names)
    return batches if file_names is None else _by_keys(batches)


# PostgreSQL: the values of named files are read key by key, the plan VALUE_ROWS is written
# for, whatever the statistics say: each active key of the files through
# uq_translations_active_key and its values by the primary key. Given the choice, the planner
# scanned every value of the language (or walked every key of the table in parallel): one
# language of a 4,000-key file in a 200,000-value project took 45 ms, 12 ms key by key.
BY_KEYS = (
    "SET LOCAL max_parallel_workers_per_gather = 0; SET LOCAL enable_seqscan = off; "
    "SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off"
)
PLANNED = (
    "RESET max_parallel_workers_per_gather; RESET enable_seqscan; RESET enable_hashjoin; "
    "RESET enable_mergejoin"
)


def _by_keys(batches: Iterator[list]) -> Iterator[list]:
    """``batches`` (a ``stream_batches`` generator), its statement planned key by key on
    PostgreSQL (``BY_KEYS``): the settings hold while it runs, up to its first batch."""
    connection = db.session.connection()
    if connection.dialect.name != "postgresql":
        yield from batches
        return
    connection.exec_driver_sql(BY_KEYS)
    try:
        first = next(batches, None)
    finally:
        connection.exec_driver_sql(PLANNED)
    if first is not None:
        yield first
        yield from batches


def utc_moment(text: str) -> datetime:
    """A timestamp the database wrote as text (naive UTC, or with its offset) as a
    timezone-aware UTC datetime."""
    moment = datetime.fromisoformat(text)
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _language_batches(project: Row, languages: list[str]) -> list[list[str]]:
    """``languages`` in order, grouped so that one query reads about ROWS_PER_QUERY values."""
    translated, _ = progress_counts(project.id, project.data_version)
    batches, rows = [[]], 0
    for language in languages:
        count = translated.get(language, 0)
        if batches[-1] and rows + count > ROWS_PER_QUERY:
            batches.append([])
            rows = 0
        batches[-1].append(language)
        rows += count
    return batches


class _Values:
    """``values(language, file_name) -> {key: value or None}``, for the languages of the
    export in their order: reads a batch of languages at a time, so memory holds a few
    languages, never the whole project. ``untranslated`` lists every active key (a PO
    catalog shows them with an empty msgstr); in the link's target language, the linked
    project's values fill the gaps.

    With ``dated``, ``latest(language, file_name)`` is when what that call returns last
    changed, read with the values: the latest updated_at of the values (inherited ones
    included, overridden ones not) and, when it lists untranslated keys, the latest creation
    of those keys; None when it returns nothing."""

    def __init__(
        self,
        project: Row,
        query: ExportQuery,
        link: Link | None,
        languages,
        untranslated: bool,
        one_batch: bool = False,
        dated: bool = False,
    ):
        self.project, self.file_names, self.link, self.dated = project, query.file_names, link, dated
        self.moment, self.query = query.moment, query
        self.reviewed = query.reviewed_only
        languages = list(languages)
        self.batches = iter([languages] if one_batch else _language_batches(project, languages))
        self.tagged = _tagged_keys(project.id, query) if query.tags else None
        self.keys = self._keys() if untranslated else None
        self.keys_created = self._keys_created() if untranslated and dated else {}
        self.loaded: dict[str, dict[str, dict]] = {}
        self.dates: dict[str, dict[str, str]] = {}

    def _keys(self) -> dict[str, list[str]]:
        keys = defaultdict(list)
        parameters = {"project_id": self.project.id}
        if self.moment is not None:
            for rows in timeline.key_rows(self.project.id, self.moment.at, self.file_names):
                for _, file_name, key in rows:
                    keys[file_name].append(key)
            return keys
        for rows in _rows(KEY_ROWS, KEY_ROWS_IN_FILES, parameters, self.file_names):
            for file_name, key in rows:
                keys[file_name].append(key)
        if self.tagged is not None:
            return {
                name: [key for key in found if key in self.tagged.get(name, ())]
                for name, found in keys.items()
            }
        return keys

    def _keys_created(self) -> dict:
        parameters = {"project_id": self.project.id}
        if self.moment is not None:
            statement, parameters = _past_key_dates(self.project.id, self.moment, self.file_names)
            return dict(db.session.execute(statement, parameters).all())
        return {
            file_name: created_at
            for rows in _rows(LATEST_KEYS, LATEST_KEYS_IN_FILES, parameters, self.file_names)
            for file_name, created_at in rows
        }

    def _read(self, project_id: str, languages: list[str], by_key: bool = False) -> tuple[dict, dict]:
        """``{language: {file_name: {key: value}}}`` and, when dated, the latest updated_at of
        each file's values, ``{language: {file_name: text}}`` (with ``by_key``, each value's,
        ``{language: {file_name: {key: text}}}``)."""
        loaded = {language: defaultdict(dict) for language in languages}
        parameters = {"project_id": project_id, "languages": languages}
        reviewed = self.reviewed and project_id == self.project.id
        if self.moment is not None and self.moment.rows is not None and project_id == self.project.id:
            past = replace(self.query, languages=tuple(languages))

            def rows_of(*extra, reviewed):
                rows = _past_rows(past)
                if extra:
                    return [[(row[0], row[1], row[2], row[3], row[4]) for row in rows if row[5]]]
                return [[(row[0], row[1], row[2], row[3]) for row in rows if row[5]]]

        elif self.moment is not None:

            def rows_of(*extra, reviewed):
                at = self.moment.at
                return timeline.value_rows(project_id, at, languages, self.file_names, dated=bool(extra))

        else:

            def rows_of(*extra, reviewed):
                return _value_rows(parameters, self.file_names, *extra, reviewed=reviewed)

        if not self.dated:
            for rows in rows_of(reviewed=reviewed):
                for language, file_name, key, value in rows:
                    loaded[language][file_name][key] = value
            return loaded, {}
        dates = {language: defaultdict(dict if by_key else str) for language in languages}
        for rows in rows_of(UPDATED_AT, reviewed=reviewed):
            for language, file_name, key, value, updated_at in rows:
                loaded[language][file_name][key] = value
                if by_key:
                    dates[language][file_name][key] = updated_at
                elif updated_at > dates[language][file_name]:
                    dates[language][file_name] = updated_at
        return loaded, dates

    def _load_next_batch(self) -> None:
        languages = next(self.batches)
        self.loaded, self.dates = self._read(self.project.id, languages)
        link = self.link
        if link is not None and link.target in self.loaded:
            own = self.loaded[link.target]
            inherited, inherited_dates = self._read(link.project_id, [link.source], by_key=True)
            for file_name, values in inherited[link.source].items():
                if self.dated:
                    # A value this project overrides is not written, nor is its date.
                    dates = inherited_dates[link.source][file_name]
                    lent = [date for key, date in dates.items() if key not in own.get(file_name, ())]
                    own_dates = self.dates[link.target]
                    own_dates[file_name] = max([own_dates[file_name], *lent])
                own[file_name] = values | own[file_name]

    def __call__(self, language: str, file_name: str) -> dict[str, str | None]:
        if language not in self.loaded:
            self._load_next_batch()
        values = self.loaded[language].get(file_name, {})
        if self.tagged is not None:
            kept = self.tagged.get(file_name, ())
            values = {key: value for key, value in values.items() if key in kept}
        if self.keys is None:
            return values
        return dict.fromkeys(self.keys.get(file_name, ()), None) | values

    def latest(self, language: str, file_name: str) -> datetime | None:
        if language not in self.loaded:
            self._load_next_batch()
        latest = max(self.dates[language].get(file_name, ""), self.keys_created.get(file_name, ""))
        return utc_moment(latest) if latest else None


def _tagged_keys(project_id: str, query: ExportQuery) -> dict[str, set[str]]:
    """``{file_name: keys}`` of the project's active keys the tag filter of ``query`` keeps
    (one query, each key's tags read by their primary key)."""
    statement = select(Translation.file_name, Translation.key).where(
        Translation.project_id == project_id,
        Translation.deleted_at.is_(None),
        query.tags.condition(Translation.id),
    )
    if query.file_names is not None:
        statement = statement.where(Translation.file_name.in_(query.file_names))
    kept = defaultdict(set)
    for file_name, key in db.session.execute(statement):
        kept[file_name].add(key)
    return kept


def _json_writer(project: Row, query: ExportQuery, link: Link | None, languages, one_batch: bool = False):
    """``(language, file_name) -> bytes``: one file's JSON object, without untranslated keys
    (``one_batch``: as ``_Values``')."""
    file_values = _Values(project, query, link, languages, untranslated=False, one_batch=one_batch)

    def json_file(language: str, file_name: str) -> bytes:
        # Read without untranslated keys, so every value is a string.
        return writers.json_bytes(file_values(language, file_name))

    return json_file


HAS_NOTES = or_(
    Translation.comment.is_not(None),
    Translation.context.is_not(None),
    Translation.meta.is_not(None),
    Translation.max_length.is_not(None),
)
KEY_NOTES = select(
    Translation.file_name,
    Translation.key,
    Translation.comment,
    Translation.context,
    Translation.meta,
    Translation.max_length,
).where(Translation.project_id == bindparam("project_id"), Translation.deleted_at.is_(None), HAS_NOTES)


def _past_key_dates(project_id: str, moment: Moment, file_names) -> tuple:
    """The latest creation of each file's keys of a past state (those not deleted for good
    since), as ``LATEST_KEYS`` reads it: a statement and its parameters."""
    keys = timeline.keys_statement(file_names is not None).subquery()
    statement = (
        select(keys.c.file_name, cast(func.max(Translation.created_at), Text))
        .join(Translation, Translation.id == keys.c.translation_id)
        .group_by(keys.c.file_name)
    )
    parameters = {"project_id": project_id, "at": moment.at}
    if file_names is not None:
        parameters["file_names"] = list(file_names)
    return statement, parameters


def _past_key_notes(project: Row, query: ExportQuery):
    """``KEY_NOTES`` of the keys of a past state, with their notes as they are now (the
    history keeps their comments and contexts as text, not what a format wrote of them)."""
    keys = timeline.keys_statement(query.file_names is not None).subquery()
    statement = (
        select(
            keys.c.file_name,
            keys.c.key,
            Translation.comment,
            Translation.context,
            Translation.meta,
            Translation.max_length,
        )
        .join(Translation, Translation.id == keys.c.translation_id)
        .where(HAS_NOTES)
    )
    parameters = {"project_id": project.id, "at": query.moment.at}
    if query.file_names is not None:
        parameters["file_names"] = list(query.file_names)
    return [db.session.execute(statement, parameters).all()]


def _key_notes(project: Row, query: ExportQuery) -> dict[str, dict[str, tuple]]:
    """``{file_name: {key: (comment, context, meta, max_length)}}`` of the keys that have
    notes (from imported files or the key's details); most projects have none, and the query
    reads only those that do."""
    notes = defaultdict(dict)
    batches = _past_key_notes(project, query) if query.moment is not None else None
    for rows in batches or _rows(
        KEY_NOTES,
        KEY_NOTES.where(Translation.file_name.in_(bindparam("file_names", expanding=True))),
        {"project_id": project.id},
        query.file_names,
    ):
        for file_name, key, comment, context, meta, max_length in rows:
            notes[file_name][key] = (comment, context, orjson.loads(meta) if meta else None, max_length)
    return notes


def _file_writer(project: Row, query: ExportQuery, link: Link | None, languages, one_batch: bool = False):
    """``(language, file_name) -> bytes``: one file in the format of ``query``, through the
    format registry, with the keys' notes and, for bilingual formats, the source texts
    (``one_batch``: as ``_Values``')."""
    module = format_module(query.format)
    names = dict(
        db.session.execute(
            select(ProjectLanguage.code, ProjectLanguage.name).where(ProjectLanguage.project_id == project.id)
        ).all()
    )
    untranslated, dated = query.format in LISTS_UNTRANSLATED, query.format in DATED
    file_values = _Values(
        project, query, link, languages, untranslated=untranslated, one_batch=one_batch, dated=dated
    )
    notes = _key_notes(project, query)
    source = _source_reader(project, query, link) if query.format in BILINGUAL else None

    def write(language: str, file_name: str) -> bytes:
        values, file_notes = file_values(language, file_name), notes.get(file_name, {})
        entries = [Entry(key, values[key], *file_notes.get(key, NO_NOTES)) for key in sorted(values)]
        source_language, source_values = source(file_name) if source else (None, {})
        latest = file_values.latest(language, file_name) if dated else None
        target = Target(
            language=language,
            file_name=file_name,
            project_name=project.name,
            language_name=names.get(language, language),
            revision_date=revision_date(latest or project.created_at),
            source_language=source_language,
            source_values=source_values,
        )
        return module.write(entries, target)

    return write


NO_NOTES = (None, None, None, None)
LISTS_UNTRANSLATED = ("po", "xliff", "xliff2")
BILINGUAL = ("xliff", "xliff2")
# Formats whose writer puts a revision date in the file (PO's PO-Revision-Date): the date of
# the file's last change in that language, so that a change to another file or language
# leaves its bytes as they were; a file with neither values nor keys, and every file of the
# other formats, gets the project's creation, which never changes.
DATED = ("po",)


def revision_date(moment: datetime) -> str:
    """A moment as a PO header writes it: ``YYYY-MM-DD HH:MM+0000``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M+0000")


def _source_reader(project: Row, query: ExportQuery, link: Link | None):
    """``file_name -> (source language, {key: value})`` for bilingual formats: the project's
    source language setting, unless the query names another."""
    source_language = query.source_language or source_language_of(project.id)
    if source_language is None:
        return lambda file_name: (None, {})
    values = _Values(project, replace(query, languages=None), link, [source_language], untranslated=False)
    return lambda file_name: (source_language, values(source_language, file_name))


def _multilingual_file(project: Row, query: ExportQuery, link: Link | None, layout) -> Callable[[str], bytes]:
    """``file_name -> bytes`` for a format whose one file holds every language (CSV): each
    file reads its own values in every language with one query (memory holds one file)."""
    module = format_module(query.format)
    languages = list(layout)
    notes = _key_notes(project, query)
    revision = revision_date(project.created_at)

    def write(file_name: str) -> bytes:
        file_query = replace(query, file_names=(file_name,))
        file_values = _Values(project, file_query, link, languages, untranslated=False, one_batch=True)
        file_notes = notes.get(file_name, {})
        by_language = {}
        for language in languages:
            values = file_values(language, file_name)
            by_language[language] = [
                Entry(key, values[key], *file_notes.get(key, NO_NOTES)) for key in sorted(values)
            ]
        return module.write_all(
            by_language,
            Target(language="", file_name=file_name, project_name=project.name, revision_date=revision),
        )

    return write


def _json_document(project, query, link, layout) -> Iterator[bytes]:
    """The spec's ``{language: {file: {key: value}}}``, keys sorted, one file at a time."""
    json_file = _json_writer(project, query, link, layout)
    yield b"{"
    for index, (language, files) in enumerate(layout.items()):
        yield (b"," if index else b"") + orjson.dumps(language) + b":{"
        for position, name in enumerate(files):
            yield (b"," if position else b"") + orjson.dumps(name) + b":" + json_file(language, name)
        yield b"}"
    yield b"}"


def _files(project, query, link, layout) -> Iterator[tuple[str | None, str, bytes]]:
    """``(language, file_name, bytes)`` of every file of the export (language None for a
    format whose one file holds every language)."""
    if getattr(format_module(query.format), "MULTILINGUAL", False):
        write_file = _multilingual_file(project, query, link, layout)
        for name in sorted({name for files in layout.values() for name in files}):
            yield None, name, write_file(name)
        return
    writer = _json_writer if query.format == "json" else _file_writer
    write = writer(project, query, link, layout)
    for language, files in layout.items():
        for name in files:
            yield language, name, write(language, name)


def _members(project, query, link, layout, kept: KeptMembers) -> Iterator[tuple[str, Deflated]]:
    """The archive's ``(name, member)`` in their order (``_files``'): each one ``kept`` at
    the data versions this snapshot reads of it is laid out as it is; only the others are
    read, written and compressed (one read for all of them), and kept in turn."""
    multilingual = getattr(format_module(query.format), "MULTILINGUAL", False)
    if multilingual:
        pairs = [(None, name) for name in sorted({name for files in layout.values() for name in files})]
    else:
        pairs = [(language, name) for language, files in layout.items() for name in files]
    version_of = _member_versions(project, query, link, layout, multilingual)
    members = []
    for language, name in pairs:
        key, version = _member_key(project, query, layout, language, name), version_of(language, name)
        members.append((language, name, key, version, kept.get(key, version)))
    missing = [(language, name) for language, name, _, _, member in members if member is None]
    write = _writer_of(project, query, link, layout, missing, multilingual) if missing else None
    for language, name, key, version, member in members:
        if member is None:
            member = writers.deflated(write(name) if multilingual else write(language, name))
            kept.keep(key, version, member)
        yield writers.entry_name(language or "", name, query.format), member


def _member_key(project, query: ExportQuery, layout: dict, language: str | None, file_name: str) -> tuple:
    """What a member's bytes depend on besides the data versions (``_member_versions``):
    the project, the query's options and the member's file and language (for a format
    whose one file holds every language, the languages it holds)."""
    languages = tuple(layout) if language is None else language
    source = query.source_language if query.format in BILINGUAL else None
    tags = (query.tags.all_of, query.tags.none_of)
    return (project.id, query.format, query.reviewed_only, query.inherit, source, languages, file_name, tags)


def _member_versions(project, query: ExportQuery, link: Link | None, layout: dict, multilingual: bool):
    """``(language, file_name) -> versions`` of a member, read in the snapshot: the last
    shared change, the file's last change that may touch every language (its own row when
    it has no wide row), the last change of the language's values (and of the source
    language's, for a bilingual format), and the linked project's data version when the
    member inherits from it. Of a format whose one file holds every language, or of reviewed
    values only (their states change with the source language's values), the file's last
    change in any language stands for the first three."""
    statement = select(FileVersion.file_name, FileVersion.version).where(FileVersion.project_id == project.id)
    source = None
    if query.format in BILINGUAL:
        source = query.source_language or source_language_of(project.id)
    if query.file_names is not None:
        languages = [*layout, *([source] if source else [])]
        names = [*query.file_names, *(wide_version_name(name) for name in query.file_names)]
        names += [language_version_name(name, code) for name in query.file_names for code in languages]
        statement = statement.where(FileVersion.file_name.in_([name for name in names if name]))
    rows = dict(db.session.execute(statement).all())
    confined = project.data_version == project.scoped_version
    shared = project.shared_version if confined else project.data_version
    inherits = {link.target} if link is not None else set()

    def version_of(language: str | None, file_name: str) -> tuple[int, int]:
        own = rows.get(file_name, 0)
        reads = set(layout) if multilingual else {language, source} - {None}
        if multilingual or query.reviewed_only:
            version = own
        else:
            wide = rows.get(wide_version_name(file_name))
            version = max(
                own if wide is None else wide,
                *(rows.get(language_version_name(file_name, code), 0) for code in reads),
            )
        linked = (project.linked_data_version or 0) if inherits & reads else 0
        return max(shared, version), linked

    return version_of


def _writer_of(
    project, query: ExportQuery, link: Link | None, layout: dict, missing: list, multilingual: bool
):
    """The writer of the ``missing`` members (``(language, file_name)`` in the archive's
    order): it reads only their files when they are not all of the export's, and only their
    languages (one language of an export of several in one query: the values of a few of
    its files, not worth counting the project's values to group languages)."""
    files = sorted({name for _, name in missing})
    every_file = sorted({name for names in layout.values() for name in names})
    if files != every_file:
        query = replace(query, file_names=tuple(files))
    if multilingual:
        return _multilingual_file(project, query, link, layout)
    languages = list(dict.fromkeys(language for language, _ in missing))
    writer = _json_writer if query.format == "json" else _file_writer
    return writer(project, query, link, languages, one_batch=len(languages) == 1 < len(layout))


def export_files(
    actor, project_id: str, format: str, tags: TagFilter = NO_TAGS
) -> list[tuple[str | None, str, bytes]]:
    """Every file of a project in ``format`` (values inherited from a linked project
    included), read in one snapshot: ``[(language or None, file_name, bytes)]``; with
    ``tags``, only the keys that filter keeps."""
    query = ExportQuery(format=format, zip=True, tags=tags)
    project, _ = authorize_export(actor, project_id, query)
    link = _link(project, query)
    return list(_files(project, query, link, files_by_language(project, query, link)))


def export_version(project, query: ExportQuery) -> tuple[int, int]:
    """The data versions an export's body depends on, as ``export_etag`` names them: its
    selection's (``selection_version``), and the linked project's when inherited (0
    otherwise). A body built at versions at least as high holds every write the older one
    held."""
    linked = project.linked_data_version if query.inherit else None
    return selection_version(project, query), linked or 0


# How many times a request waits for another's build before it builds its own body.
WAITS = 3


def build_export(
    project: Row,
    query: ExportQuery,
    etag: str,
    cache: ExportCache,
    max_stale: float | None = None,
    actor=None,
) -> Export:
    """The export for ``query``, at least as new as the data the caller read (``project``
    and ``etag``, from its snapshot), always with the body's own ETag: from the cache when
    this ETag, or a newer one of the same query, was built before; from another request's
    build of such a body in this process (waiting for it); after an older build ends, from
    the data as it stands then (a new snapshot; a build the requests waiting meanwhile
    share); otherwise streamed (and kept when small). When the caller accepts an older body
    (``max_stale``: seconds since that build began) and another request builds the
    owner's newer one, the body it replaces. BadRequest for a PO catalog that is not one
    file in one language. An export of every file by an API key (``actor``) is kept in the
    audit log."""
    if isinstance(actor, ApiKeyActor) and query.file_names is None:
        audit.record_full_export(actor, project.id, _audited(query))
    slug = _slug(project.name)
    if query.format != "json" and not query.zip:
        return _single_file(project, query, etag)
    if query.moment is not None:
        return _past_export(project, query, etag, slug)
    if query.zip:
        mimetype, filename = "application/zip", f"{slug}-{query.format}.zip"
    else:
        mimetype, filename = "application/json", None
    owner, version, build = (project.id, query), export_version(project, query), None
    for _ in range(WAITS):
        kept = cache.kept_since(owner, version)
        if kept is None and max_stale is not None:
            kept = cache.replaced_while_building(owner, max_stale)
        if kept is not None:
            return Export(kept.body, mimetype, filename, kept.etag)
        running, mine = cache.claim(etag, owner, version)
        if mine:
            build = running
            break
        built = cache.wait(running)
        if built is not None and at_least(running.version, version):
            return Export(built.body, mimetype, filename, built.etag)
        if not at_least(running.version, version):
            # An older build has ended: build (or join) the newest body, which also serves
            # every request that waited meanwhile.
            project, etag = _newest(project, query)
            version = export_version(project, query)
    if build is None:
        build = cache.start(etag, owner, version)
    link = _link(project, query)
    layout = files_by_language(project, query, link)
    if query.zip:
        chunks = writers.zip_members(_members(project, query, link, layout, cache.members))
        if query.format not in STREAMED:
            chunks = iter([_refusing(query.format, lambda: b"".join(chunks))])
    else:
        chunks = _json_document(project, query, link, layout)
    return Export(cache.keep(build, chunks), mimetype, filename, etag)


class _NothingKept(KeptMembers):
    """No member of a past state is taken from, or kept in, the members of the present."""

    def __init__(self):
        super().__init__(0)

    def get(self, key, version):
        return None

    def keep(self, key, version, member) -> None:
        return None


def _past_export(project: Row, query: ExportQuery, etag: str, slug: str) -> Export:
    """The JSON document or the ZIP of a past state, made whole (outside the caches: the
    history is read as of the moment, with a plan of its own)."""
    query = with_past_rows(project, query)
    link = _link(project, query)
    layout = files_by_language(project, query, link)
    if query.zip:
        chunks = writers.zip_members(_members(project, query, link, layout, _NothingKept()))
        body = _refusing(query.format, lambda: b"".join(chunks))
        return Export(body, "application/zip", f"{slug}-{query.format}.zip", etag)
    return Export(b"".join(_json_document(project, query, link, layout)), "application/json", None, etag)


def _audited(query: ExportQuery) -> dict:
    languages = list(query.languages) if query.languages else None
    return {
        "format": query.format,
        "zip": query.zip,
        "languages": languages,
        "reviewedOnly": query.reviewed_only,
    }


def _newest(project: Row, query: ExportQuery) -> tuple[Row, str]:
    """The project's row and the export's ETag in a new snapshot of the session (the data
    as it stands now); the same ones when the session holds changes. NotFound when the
    project has gone meanwhile."""
    if not new_snapshot():
        return project, export_etag(project, query)
    newest = exported_project(project.id, query)
    if newest is None:
        raise NotFound(policy.PROJECT_NOT_FOUND)
    return newest, export_etag(newest, query)


# Formats whose writer takes any stored key and value are streamed; the others may refuse a
# project's keys (a nested format cannot hold both "a" and "a.b"), so their archive is made
# whole before the answer starts, and a refusal is a 400 rather than a cut-off download.
STREAMED = ("json", "po")


def _refusing(format: str, make: Callable[[], bytes]) -> bytes:
    try:
        return make()
    except ValueError as error:
        raise BadRequest(
            f"format={format} cannot hold this project's keys: {error}. Export it in another "
            "format (json keeps every key), or rename the key."
        ) from None


def single_file_needs(query: ExportQuery) -> tuple[str, ...]:
    """What an export as one file (a file format without zip) lacks: ``("fileName",)`` or
    ``("language", "fileName")`` when it does not name exactly one of each it needs (a
    format holding every language in one file needs no language); empty when complete."""
    if query.format == "json" or query.zip:
        return ()
    multilingual = getattr(format_module(query.format), "MULTILINGUAL", False)
    languages, file_names = query.languages or (), query.file_names or ()
    if len(file_names) != 1 or (not multilingual and len(languages) != 1):
        return ("fileName",) if multilingual else ("language", "fileName")
    return ()


def _single_file(project: Row, query: ExportQuery, etag: str) -> Export:
    """One file of a file format (not the JSON document): exactly one ``fileName`` and, unless
    the format holds every language in one file, one ``language``."""
    module = format_module(query.format)
    multilingual = getattr(module, "MULTILINGUAL", False)
    languages = query.languages or ()
    if single_file_needs(query):
        needs = "one `fileName`" if multilingual else "exactly one `language` and one `fileName`"
        raise BadRequest(
            f"format={query.format} without zip returns one file: pass {needs}, "
            "or set zip=true for all of them."
        )
    query = with_past_rows(project, query)
    file_name, link = query.file_names[0], _link(project, query)
    if multilingual:
        layout = files_by_language(project, query, link)
        body = _refusing(query.format, lambda: _multilingual_file(project, query, link, layout)(file_name))
        filename = writers.entry_name("", file_name, query.format)
    else:
        language = languages[0]
        body = _refusing(
            query.format, lambda: _file_writer(project, query, link, [language])(language, file_name)
        )
        filename = writers.entry_name(language, file_name, query.format)
    return Export(body, module.MEDIA_TYPE, filename.replace("/", "-"), etag)


def _slug(name: str) -> str:
    slug = "".join(c if c.isascii() and c.isalnum() else "-" for c in name.lower()).strip("-")
    return slug or "project"
