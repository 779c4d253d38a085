"""Files: a file exists in a project once it has a record for at least one language."""

from sqlalchemy import bindparam, func, insert, select, update

from loko import events
from loko.auth import policy
from loko.database import SESSION_STATEMENTS, DriverQuery, new_id, unit_of_work, utcnow
from loko.errors import Conflict, NotFound
from loko.extensions import db
from loko.files.models import FileRecord
from loko.languages.models import ProjectLanguage
from loko.languages.service import ensure_languages
from loko.projects.service import bump_data_version, take_turn_alone
from loko.translations import history
from loko.translations.models import Translation, TranslationValue
from loko.translations.operations import operation
from loko.translations.purge import purge_translations


def file_records(project_id: str, file_name=None, language=None, ids=None) -> list[dict]:
    query = (
        select(
            FileRecord.id,
            FileRecord.project_id,
            FileRecord.file_name,
            FileRecord.language_code.label("language"),
            ProjectLanguage.name.label("language_name"),
            ProjectLanguage.emoji.label("language_emoji"),
        )
        .join(
            ProjectLanguage,
            (ProjectLanguage.project_id == FileRecord.project_id)
            & (ProjectLanguage.code == FileRecord.language_code),
        )
        .where(FileRecord.project_id == project_id)
    )
    if file_name is not None:
        query = query.where(FileRecord.file_name == file_name)
    if language is not None:
        query = query.where(FileRecord.language_code == language)
    if ids is not None:
        query = query.where(FileRecord.id.in_(ids))
    # Sorted here, by code point, because ORDER BY follows the database's collation and
    # PostgreSQL's locale collations would order names differently from SQLite.
    rows = [dict(row._mapping) for row in db.session.execute(query)]
    return sorted(rows, key=lambda row: (row["file_name"], row["language"]))


FILE_RECORD_IDS = select(FileRecord.language_code, FileRecord.id).where(
    FileRecord.project_id == bindparam("project_id"),
    FileRecord.file_name == bindparam("file_name"),
    FileRecord.language_code.in_(bindparam("codes", expanding=True)),
)
# A single PATCH's usual case, one language: run by the driver.
FILE_RECORD_ID = DriverQuery(
    select(FileRecord.language_code, FileRecord.id).where(
        FileRecord.project_id == bindparam("project_id"),
        FileRecord.file_name == bindparam("file_name"),
        FileRecord.language_code == bindparam("code"),
    )
)


def file_record_ids(project_id: str, file_name: str, codes, statements=SESSION_STATEMENTS) -> dict[str, str]:
    """``{code: record id}`` of the file's existing records among ``codes`` (one query each,
    run by ``statements``: for a PATCH's one or few languages)."""
    parameters = {"project_id": project_id, "file_name": file_name}
    ids = {}
    for code in codes:
        ids.update(statements.query(FILE_RECORD_ID, {**parameters, "code": code}).fetchall())
    return ids


def file_records_ahead(project_id: str, file_name: str, codes, statements=SESSION_STATEMENTS):
    """In a pipelined block (``SessionStatements.pipelining``): send the reads of
    ``ensure_file_records`` now, in the block's round trip, and return the function that
    reads them and does the rest (``write_patch``'s ``file_records``); None elsewhere."""
    if not statements.pipelining():
        return None
    parameters = {"project_id": project_id, "file_name": file_name}
    sent = [statements.query(FILE_RECORD_ID, {**parameters, "code": code}) for code in sorted(set(codes))]

    def file_records(project_id: str, file_name: str, codes):
        existing = {}
        for cursor in sent:
            existing.update(cursor.fetchall())
            cursor.close()
        return ensure_file_records(project_id, file_name, codes, existing)

    return file_records


def ensure_file_records(
    project_id: str, file_name: str, codes, existing=None
) -> tuple[dict[str, str], list[str]]:
    """Make sure the file has a record in each language (adding unknown languages first).
    ``existing``: the file's records in those languages, when read already.

    Returns ``({code: record id}, [ids of the records created now])``.
    """
    ordered = sorted(codes) if isinstance(codes, set | frozenset) else list(dict.fromkeys(codes))
    codes = set(ordered)
    parameters = {"project_id": project_id, "file_name": file_name}
    if existing is not None:
        existing = dict(existing)
    elif len(codes) == 1:
        (code,) = codes
        existing = dict(FILE_RECORD_ID.run({**parameters, "code": code}).fetchall())
    else:
        parameters["codes"] = sorted(codes)
        existing = dict(db.session.connection().execute(FILE_RECORD_IDS, parameters).all())
    if existing.keys() != codes:
        take_turn_alone(project_id)  # records (and maybe languages) to add: not a key's change
        ensure_languages(project_id, [code for code in ordered if code not in existing])
    missing = [
        {"id": new_id(), "project_id": project_id, "file_name": file_name, "language_code": code}
        for code in sorted(codes - existing.keys())
    ]
    if missing:
        db.session.execute(insert(FileRecord), missing)
    existing.update({row["language_code"]: row["id"] for row in missing})
    return existing, [row["id"] for row in missing]


def list_files(actor, project_id: str, file_name=None, language=None) -> list[dict]:
    policy.require_permission(actor, project_id, policy.VIEW_TRANSLATIONS)
    return file_records(project_id, file_name, language)


def create_files(actor, project_id: str, file_name: str, languages: list[dict]) -> list[dict]:
    """Create the file's records in the given languages, skipping those that exist;
    returns the records created by this call."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.MANAGE_KEYS)
        bump_data_version(project_id, files=(file_name,))
        details = {item["code"]: item for item in languages}
        ensure_languages(project_id, details, details)
        _, created = ensure_file_records(project_id, file_name, details)
        return file_records(project_id, ids=created) if created else []


def _file_exists(project_id: str, file_name: str) -> bool:
    record = db.session.execute(
        select(FileRecord.id).where(FileRecord.project_id == project_id, FileRecord.file_name == file_name)
    ).first()
    if record is not None:
        return True
    return (
        db.session.execute(
            select(Translation.id).where(
                Translation.project_id == project_id,
                Translation.file_name == file_name,
                Translation.deleted_at.is_(None),
            )
        ).first()
        is not None
    )


def rename_file(actor, project_id: str, file_name: str, new_file_name: str) -> list[dict]:
    """Rename a file in every language, with its translations (trashed ones too);
    NotFound for an unknown file, Conflict when the new name exists."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.MANAGE_KEYS)
        bump_data_version(project_id, files=(file_name, new_file_name))
        if not _file_exists(project_id, file_name):
            raise NotFound(f"fileName: no file {file_name!r} in this project.")
        if new_file_name == file_name or _file_exists(project_id, new_file_name):
            raise Conflict(f"newFileName: a file {new_file_name!r} already exists.")
        db.session.execute(
            update(FileRecord)
            .where(FileRecord.project_id == project_id, FileRecord.file_name == file_name)
            .values(file_name=new_file_name)
        )
        db.session.execute(
            update(Translation)
            .where(Translation.project_id == project_id, Translation.file_name == file_name)
            .values(file_name=new_file_name, updated_at=utcnow())
        )
        history.record_file_rename(actor, project_id, new_file_name, file_name)
        return file_records(project_id, file_name=new_file_name)


def delete_file(
    actor, project_id: str, file_name: str, language_code: str | None, permanent: bool = False
) -> str | None:
    """Delete a file with all its translations, or only one language of it, as one operation
    that can be undone while the trash keeps it (its keys go to the trash, a language's values
    are kept in the history); ``permanent`` deletes for good. Returns the operation's id.
    NotFound for an unknown file (or language version)."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.MANAGE_KEYS)
        bump_data_version(project_id, files=(file_name,))
        if not _file_exists(project_id, file_name):
            raise NotFound(f"fileName: no file {file_name!r} in this project.")
        in_file = select(Translation.id).where(
            Translation.project_id == project_id, Translation.file_name == file_name
        )
        on_file = [FileRecord.project_id == project_id, FileRecord.file_name == file_name]
        if language_code is not None:
            on_file.append(FileRecord.language_code == language_code)
        languages = sorted(db.session.execute(select(FileRecord.language_code).where(*on_file)).scalars())
        with operation(
            actor, project_id, "file-delete", permanent, fileName=file_name, language=language_code
        ) as details:
            if language_code is None:
                details.update(_remove_keys(actor, project_id, in_file, permanent))
            else:
                action = "purged" if permanent else "deleted"
                removed = history.record_value_removals(actor, project_id, in_file, language_code, action)
                db.session.execute(
                    db.delete(TranslationValue).where(
                        TranslationValue.project_id == project_id,
                        TranslationValue.language_code == language_code,
                        TranslationValue.translation_id.in_(in_file),
                    )
                )
                if not languages and not removed:
                    raise NotFound(f"languageCode: the file {file_name!r} has no {language_code!r} version.")
                details["values"] = removed
            db.session.execute(db.delete(FileRecord).where(*on_file))
            details["records"] = languages
            details["changes"] = details.get("keys", 0) + details["values"] + len(languages)
        events.audited(
            actor,
            project_id,
            "file.deleted",
            events.Target("file", None, file_name),
            {
                "fileName": file_name,
                "language": language_code,
                "keys": details.get("keys", 0),
                "values": details["values"],
                "permanent": permanent,
                "operationId": details["operation_id"],
            },
        )
        return details["operation_id"]


def _remove_keys(actor, project_id: str, in_file, permanent: bool) -> dict:
    """A whole file's keys: its active ones to the trash (the trashed ones stay there), or
    every one for good. Returns ``{keys, values}`` counted over the keys removed."""
    active = in_file.where(Translation.deleted_at.is_(None))
    chosen = in_file if permanent else active
    values = db.session.execute(
        select(func.count()).select_from(TranslationValue).where(TranslationValue.translation_id.in_(chosen))
    ).scalar_one()
    if permanent:
        keys = db.session.execute(select(func.count()).select_from(chosen.subquery())).scalar_one()
        purge_translations(actor, project_id, chosen)
        return {"keys": keys, "values": values}
    keys = history.record_translation_event(actor, project_id, active, "deleted")
    now = utcnow()
    db.session.execute(
        update(Translation)
        .where(Translation.id.in_(active))
        .values(deleted_at=now, updated_at=now)
        .execution_options(synchronize_session=False)
    )
    return {"keys": keys, "values": values}


def file_removal(actor, project_id: str, file_name: str, language_code: str | None = None) -> dict:
    """What ``delete_file`` would remove: the file's keys and values (those in the trash
    counted apart), or with ``language_code`` that language's values only. NotFound for an
    unknown file or language version."""
    policy.require_permission(actor, project_id, policy.MANAGE_KEYS)
    if not _file_exists(project_id, file_name):
        raise NotFound(f"fileName: no file {file_name!r} in this project.")
    in_file = (Translation.project_id == project_id, Translation.file_name == file_name)
    trashed = Translation.deleted_at.is_not(None)
    keys = dict(db.session.execute(select(trashed, func.count()).where(*in_file).group_by(trashed)).all())
    values = select(trashed, func.count()).join(
        TranslationValue, TranslationValue.translation_id == Translation.id
    )
    if language_code is not None:
        values = values.where(TranslationValue.language_code == language_code)
    values = dict(db.session.execute(values.where(*in_file).group_by(trashed)).all())
    languages = [record["language"] for record in file_records(project_id, file_name=file_name)]
    if language_code is not None and language_code not in languages and not any(values.values()):
        raise NotFound(f"languageCode: the file {file_name!r} has no {language_code!r} version.")
    return {
        "fileName": file_name,
        "language": language_code,
        "languages": languages,
        "keys": keys.get(False, 0),
        "trashed_keys": keys.get(True, 0),
        "values": values.get(False, 0),
        "trashed_values": values.get(True, 0),
    }
