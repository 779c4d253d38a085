"""Project languages: listing with progress, adding, renaming everywhere, deleting."""

from functools import lru_cache

from sqlalchemy import and_, case, exists, func, insert, or_, select, update
from sqlalchemy.orm import aliased

from loko import events
from loko.apikeys.models import ApiKey
from loko.auth import policy
from loko.database import refresh_statistics, unit_of_work
from loko.errors import Conflict, NotFound
from loko.extensions import db
from loko.files.models import FileRecord
from loko.languages.catalog import flag_emoji, language_name
from loko.languages.models import ProjectLanguage
from loko.projects.models import Project, ProjectMember
from loko.projects.service import Link, bump_data_version, link_of
from loko.translations import history
from loko.translations.models import Translation, TranslationValue
from loko.translations.operations import operation


def language_rows(project_id: str) -> list[dict]:
    """The project's languages sorted by code point (not by the database's collation)."""
    rows = db.session.execute(
        select(ProjectLanguage.code, ProjectLanguage.name, ProjectLanguage.emoji).where(
            ProjectLanguage.project_id == project_id
        )
    ).all()
    return [{"code": r.code, "name": r.name, "emoji": r.emoji} for r in sorted(rows)]


def ensure_languages(project_id: str, codes, details: dict | None = None) -> None:
    """Add the codes a project does not have yet, named from CLDR unless ``details`` names them.

    A project's first language becomes its source language: the first of ``codes`` in the
    caller's order (by code when ``codes`` is a set)."""
    ordered = sorted(codes) if isinstance(codes, set | frozenset) else list(dict.fromkeys(codes))
    wanted = set(ordered)
    if not wanted:
        return
    existing = set(
        db.session.execute(
            select(ProjectLanguage.code).where(
                ProjectLanguage.project_id == project_id, ProjectLanguage.code.in_(wanted)
            )
        ).scalars()
    )
    details = details or {}
    missing = sorted(wanted - existing)
    if missing:
        bump_data_version(project_id)  # a new language (maybe the source language): a shared change
        db.session.execute(
            insert(ProjectLanguage),
            [
                {
                    "project_id": project_id,
                    "code": code,
                    "name": (details.get(code) or {}).get("name") or language_name(code),
                    "emoji": (details.get(code) or {}).get("emoji", flag_emoji(code)),
                }
                for code in missing
            ],
        )
        first = next(code for code in ordered if code in missing)
        db.session.execute(
            update(Project)
            .where(Project.id == project_id, Project.source_language.is_(None))
            .values(source_language=first)
        )


def language_stats(project_id: str) -> dict[str, int]:
    """Translated values per language over active translations.

    All values are counted from the (project, language) index alone, and the values of
    trashed translations, usually few, are taken off: joining every value to its
    translation would read the whole project.
    """
    counts = dict(
        db.session.execute(
            select(TranslationValue.language_code, func.count())
            .where(TranslationValue.project_id == project_id)
            .group_by(TranslationValue.language_code)
        ).all()
    )
    trashed = db.session.execute(
        select(TranslationValue.language_code, func.count())
        .join(Translation, Translation.id == TranslationValue.translation_id)
        .where(Translation.project_id == project_id, Translation.deleted_at.is_not(None))
        .group_by(TranslationValue.language_code)
    )
    for code, count in trashed:
        counts[code] -= count
    return counts


def active_translation_count(project_id: str) -> int:
    return db.session.execute(
        select(func.count())
        .select_from(Translation)
        .where(Translation.project_id == project_id, Translation.deleted_at.is_(None))
    ).scalar_one()


@lru_cache(maxsize=256)
def progress_counts(project_id: str, data_version: int) -> tuple[dict[str, int], int]:
    """``(translated per language, active keys)`` of one data version of a project; a new
    version is a new cache key, so a count is never stale."""
    return language_stats(project_id), active_translation_count(project_id)


@lru_cache(maxsize=256)
def inherited_counts(project_id: str, link: Link, data_version: int, linked_version: int) -> tuple[int, int]:
    """``(values lent, keys lent)`` of a linked project (decisions §9), in one statement:
    its active keys with a value in the link's source language that this project does not
    override in the target (each counts as translated there), and those of them this
    project has no active key for (each is one more key of this project, as the export and
    the editor show it). Cached per data version of both projects."""
    theirs, their_value = aliased(Translation), aliased(TranslationValue)
    ours = and_(
        Translation.project_id == project_id,
        Translation.deleted_at.is_(None),
        Translation.file_name == theirs.file_name,
        Translation.key == theirs.key,
    )
    overridden = exists().where(
        ours,
        TranslationValue.translation_id == Translation.id,
        TranslationValue.language_code == link.target,
    )
    lent_values, lent_keys = db.session.execute(
        select(
            func.coalesce(func.sum(case((overridden.correlate(theirs), 0), else_=1)), 0),
            func.coalesce(func.sum(case((exists().where(ours).correlate(theirs), 0), else_=1)), 0),
        )
        .select_from(theirs)
        .join(
            their_value,
            and_(their_value.translation_id == theirs.id, their_value.language_code == link.source),
        )
        .where(theirs.project_id == link.project_id, theirs.deleted_at.is_(None))
    ).one()
    return int(lent_values), int(lent_keys)


def linked_progress(project: Project, translated: dict[str, int], total: int) -> tuple[dict[str, int], int]:
    """The progress counts with what a linked project lends: its values count as translated
    in the target language and its keys as keys of this project."""
    link = link_of(project)
    if link is None:
        return translated, total
    linked_version = db.session.execute(
        select(Project.data_version).where(Project.id == link.project_id)
    ).scalar_one_or_none()
    if linked_version is None:
        return translated, total
    lent_values, lent_keys = inherited_counts(project.id, link, project.data_version, linked_version)
    translated = {**translated, link.target: translated.get(link.target, 0) + lent_values}
    return translated, total + lent_keys


def list_languages(actor, project_id: str, stats: bool = False) -> list[dict]:
    project, _ = policy.authorize(actor, project_id, policy.VIEW_TRANSLATIONS)
    return project_languages(project, stats)


def project_languages(project: Project, stats: bool, inherited: bool = False) -> list[dict]:
    """The project's languages, with progress when ``stats``; access is the caller's check.
    With ``inherited``, what a linked project lends counts as this one's, as in its export."""
    languages = language_rows(project.id)
    if stats:
        translated, total = progress_counts(project.id, project.data_version)
        if inherited:
            translated, total = linked_progress(project, translated, total)
        for language in languages:
            done = translated.get(language["code"], 0)
            language["translated"] = done
            language["total"] = total
            language["progress"] = round(done * 100 / total, 1) if total else 0.0
    return languages


def file_names(project_id: str) -> list[str]:
    return list(
        db.session.execute(
            select(FileRecord.file_name)
            .where(FileRecord.project_id == project_id)
            .distinct()
            .order_by(FileRecord.file_name)
        ).scalars()
    )


def add_language(actor, project_id: str, code: str, name: str | None, emoji: str | None) -> list[dict]:
    """Add a language and a file record for it in every existing file; Conflict if it exists."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.MANAGE_KEYS)
        bump_data_version(project_id)
        if db.session.get(ProjectLanguage, (project_id, code)) is not None:
            raise Conflict(f"code: the project already has the language {code!r}.")
        details = {code: {"name": name, **({"emoji": emoji} if emoji is not None else {})}}
        ensure_languages(project_id, [code], details)
        names = file_names(project_id)
        if names:
            db.session.execute(
                insert(FileRecord),
                [{"project_id": project_id, "file_name": n, "language_code": code} for n in names],
            )
        return language_rows(project_id)


def update_language(actor, project_id: str, current_code: str, changes: dict) -> list[dict]:
    """Change a language's name, emoji or code; a new code reaches values, file records and
    project links. NotFound for an unknown code, Conflict when the new code exists."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.MANAGE_KEYS)
        bump_data_version(project_id)
        language = db.session.get(ProjectLanguage, (project_id, current_code))
        if language is None:
            raise NotFound(f"currentCode: the project has no language {current_code!r}.")
        new_code = changes.get("code", current_code)
        if new_code != current_code:
            if db.session.get(ProjectLanguage, (project_id, new_code)) is not None:
                raise Conflict(f"code: the project already has the language {new_code!r}.")
            _rename_code(project_id, current_code, new_code)
        values = {field: changes[field] for field in ("name", "emoji") if field in changes}
        if values:
            db.session.execute(
                update(ProjectLanguage)
                .where(ProjectLanguage.project_id == project_id, ProjectLanguage.code == new_code)
                .values(**values)
            )
        db.session.expire_all()
        return language_rows(project_id)


def _rename_code(project_id: str, old: str, new: str) -> None:
    """Values and file records follow through ON UPDATE CASCADE; links are updated here."""
    db.session.execute(
        update(ProjectLanguage)
        .where(ProjectLanguage.project_id == project_id, ProjectLanguage.code == old)
        .values(code=new)
    )
    db.session.execute(
        update(Project)
        .where(Project.id == project_id, Project.linked_language_target_code == old)
        .values(linked_language_target_code=new)
    )
    db.session.execute(
        update(Project)
        .where(Project.id == project_id, Project.source_language == old)
        .values(source_language=new)
    )
    db.session.execute(
        update(Project)
        .where(Project.linked_project_id == project_id, Project.linked_language_code == old)
        .values(linked_language_code=new, data_version=Project.data_version + 1)
    )
    _rename_in_limits(project_id, old, new)


def _rename_in_limits(project_id: str, old: str, new: str) -> None:
    """Members and keys limited to ``old`` are limited to ``new`` (a project has few)."""
    for table in (ProjectMember.__table__, ApiKey.__table__):
        primary = list(table.primary_key.columns)
        rows = db.session.execute(
            select(*primary, table.c.languages).where(
                table.c.project_id == project_id, table.c.languages.contains(f'"{old}"')
            )
        ).all()
        for *ids, text in rows:
            codes = policy.stored_languages(text)
            if old in codes:
                db.session.execute(
                    update(table)
                    .where(*(column == value for column, value in zip(primary, ids, strict=True)))
                    .values(languages=policy.languages_column(codes - {old} | {new}))
                )


def delete_language(actor, project_id: str, code: str, permanent: bool = False) -> tuple[list[dict], str]:
    """Delete a language with its values and file records, as one operation that can be
    undone while the trash keeps it (its values are kept in the history); ``permanent``
    deletes for good. Returns the remaining languages and the operation's id. A structural
    change: canEditProjects. NotFound for an unknown code, Conflict while a project link
    uses it."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.EDIT_PROJECTS)
        bump_data_version(project_id)
        language = db.session.get(ProjectLanguage, (project_id, code))
        if language is None:
            raise NotFound(f"code: the project has no language {code!r}.")
        in_use = db.session.execute(
            select(Project.id).where(
                or_(
                    and_(Project.id == project_id, Project.linked_language_target_code == code),
                    and_(Project.linked_project_id == project_id, Project.linked_language_code == code),
                )
            )
        ).first()
        if in_use is not None:
            raise Conflict(f"code: the language {code!r} is used by a linked-project setting; unlink first.")
        _refuse_source_language(project_id, code)
        described = {"code": language.code, "name": language.name, "emoji": language.emoji}
        files = list(
            db.session.execute(
                select(FileRecord.file_name)
                .where(FileRecord.project_id == project_id, FileRecord.language_code == code)
                .order_by(FileRecord.file_name)
            ).scalars()
        )
        with operation(actor, project_id, "language-delete", permanent, language=described) as details:
            in_project = select(Translation.id).where(Translation.project_id == project_id)
            action = "purged" if permanent else "deleted"
            removed = history.record_value_removals(actor, project_id, in_project, code, action)
            db.session.execute(
                db.delete(ProjectLanguage).where(
                    ProjectLanguage.project_id == project_id, ProjectLanguage.code == code
                )
            )
            details.update(files=files, values=removed, changes=removed + 1)
        events.audited(
            actor,
            project_id,
            "language.deleted",
            events.Target("language", code, code),
            {
                **described,
                "files": files,
                "values": removed,
                "permanent": permanent,
                "operationId": details["operation_id"],
            },
        )
        db.session.expire_all()
        answer = language_rows(project_id), details["operation_id"]
    # Its history rows (one per value) are what a restore reads: the planner must know them.
    refresh_statistics({"translation_history": removed, "translation_values": removed})
    return answer


def _refuse_source_language(project_id: str, code: str) -> None:
    """Conflict when ``code`` is the project's source language and another language could
    take its place (the last language may go; the next one added becomes the source)."""
    source = db.session.execute(select(Project.source_language).where(Project.id == project_id)).scalar()
    if source != code:
        return
    others = db.session.execute(
        select(ProjectLanguage.code).where(
            ProjectLanguage.project_id == project_id, ProjectLanguage.code != code
        )
    ).first()
    if others is not None:
        raise Conflict(
            f"code: {code!r} is the project's source language; choose another source language "
            "in the project's settings first."
        )
    db.session.execute(update(Project).where(Project.id == project_id).values(source_language=None))


def language_removal(actor, project_id: str, code: str) -> dict:
    """What deleting a language would remove: its values per file (those of trashed
    translations counted apart) and its file records. NotFound for an unknown code."""
    policy.require_permission(actor, project_id, policy.EDIT_PROJECTS)
    language = db.session.get(ProjectLanguage, (project_id, code))
    if language is None:
        raise NotFound(f"code: the project has no language {code!r}.")
    rows = db.session.execute(
        select(Translation.file_name, Translation.deleted_at.is_not(None), func.count())
        .join(TranslationValue, TranslationValue.translation_id == Translation.id)
        .where(TranslationValue.project_id == project_id, TranslationValue.language_code == code)
        .group_by(Translation.file_name, Translation.deleted_at.is_not(None))
    ).all()
    records = db.session.execute(
        select(FileRecord.file_name).where(
            FileRecord.project_id == project_id, FileRecord.language_code == code
        )
    ).scalars()
    files = {name: {"fileName": name, "values": 0, "trashed": 0} for name in records}
    for file_name, trashed, count in rows:
        entry = files.setdefault(file_name, {"fileName": file_name, "values": 0, "trashed": 0})
        entry["trashed" if trashed else "values"] += count
    return {
        "code": language.code,
        "name": language.name,
        "emoji": language.emoji,
        "values": sum(entry["values"] for entry in files.values()),
        "trashed": sum(entry["trashed"] for entry in files.values()),
        "files": [files[name] for name in sorted(files)],
    }
