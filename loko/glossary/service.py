"""The glossary's use cases: its terms (listed, added, changed, deleted), its files (CSV and
TBX, imported in one transaction with a dry run, exported), and the terms found in a
project's texts (the editor, the suggestions, the machine translation context, MCP).

Every change raises the organization's glossary revision (so each process reads the new
terms at its next write) and queues one job re-checking the organization's values
(``loko.glossary.jobs``), in the change's transaction.
"""

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from loko.audit import service as audit
from loko.auth import policy
from loko.database import SESSION_STATEMENTS, in_chunks, new_id, unit_of_work, utcnow
from loko.errors import BadRequest, Conflict, NotFound
from loko.extensions import db
from loko.formats import FormatError
from loko.glossary import files, matching
from loko.glossary.models import (
    MAX_NOTE,
    MAX_TERM,
    MAX_TERMS,
    MAX_TRANSLATIONS,
    PARTS_OF_SPEECH,
    Glossary,
    GlossaryTerm,
    GlossaryTranslation,
)
from loko.languages.codes import canonical_code

TERM_NOT_FOUND = "Glossary term not found."
RECHECK = "glossary-recheck"
MAX_SUGGESTED = 20


def _describe(term: GlossaryTerm, translations: list[GlossaryTranslation]) -> dict:
    return {
        "id": term.id,
        "language": term.language,
        "term": term.term,
        "partOfSpeech": term.part_of_speech,
        "note": term.note,
        "caseSensitive": term.case_sensitive,
        "forbidden": term.forbidden,
        "translations": [
            {"language": t.language, "text": t.text, "forbidden": t.forbidden}
            for t in sorted(translations, key=lambda t: (t.language, t.forbidden, t.position))
        ],
        "createdAt": term.created_at,
        "updatedAt": term.updated_at,
    }


def _translations_of(term_ids: list[str]) -> dict[str, list[GlossaryTranslation]]:
    found: dict[str, list[GlossaryTranslation]] = {term_id: [] for term_id in term_ids}
    for chunk in in_chunks(term_ids):
        for row in db.session.scalars(
            select(GlossaryTranslation).where(GlossaryTranslation.term_id.in_(chunk))
        ):
            found[row.term_id].append(row)
    return found


def _changed(organization_id: str) -> None:
    """Raise the glossary's revision and queue the re-check of the organization's values."""
    from loko.jobs.service import enqueue

    now = utcnow()
    raised = db.session.execute(
        update(Glossary)
        .where(Glossary.organization_id == organization_id)
        .values(revision=Glossary.revision + 1, updated_at=now)
    ).rowcount
    if not raised:
        try:
            with db.session.begin_nested():
                db.session.add(Glossary(organization_id=organization_id, revision=1, updated_at=now))
        except IntegrityError:
            db.session.execute(
                update(Glossary)
                .where(Glossary.organization_id == organization_id)
                .values(revision=Glossary.revision + 1, updated_at=now)
            )
    enqueue(RECHECK, {"organizationId": organization_id}, coalesce_key=f"{RECHECK}:{organization_id}")


def _checked_translations(translations: list[dict], field: str = "translations") -> list[dict]:
    """The translations without repeats; BadRequest for two allowed ones in a language."""
    allowed: dict[str, str] = {}
    kept, seen = [], set()
    for index, item in enumerate(translations):
        key = (item["language"], item["text"])
        if key in seen:
            continue
        seen.add(key)
        if not item["forbidden"]:
            if item["language"] in allowed:
                raise BadRequest(
                    f"{field}.{index}: {item['language']} has the translation {allowed[item['language']]!r} "
                    "already; a term has one allowed translation per language (mark others forbidden)."
                )
            allowed[item["language"]] = item["text"]
        kept.append(item)
    return kept


def _set_translations(term: GlossaryTerm, translations: list[dict], new: bool = False) -> None:
    if not new:
        db.session.execute(delete(GlossaryTranslation).where(GlossaryTranslation.term_id == term.id))
    for position, item in enumerate(translations):
        db.session.add(
            GlossaryTranslation(
                term_id=term.id,
                language=item["language"],
                text=item["text"],
                forbidden=item["forbidden"],
                position=position,
            )
        )


def _term(organization_id: str, term_id: str) -> GlossaryTerm:
    row = db.session.get(GlossaryTerm, term_id)
    if row is None or row.organization_id != organization_id:
        raise NotFound(TERM_NOT_FOUND)
    return row


def _flush_unique(term: GlossaryTerm) -> None:
    try:
        with db.session.begin_nested():
            db.session.flush()
    except IntegrityError:
        raise Conflict(f"term: {term.term!r} ({term.language}) is in the glossary already.") from None


def _term_count(organization_id: str) -> int:
    return db.session.scalar(
        select(func.count()).select_from(GlossaryTerm).where(GlossaryTerm.organization_id == organization_id)
    )


def _condition(organization_id: str, q: str | None, language: str | None):
    """Terms of the organization (in ``language``) whose text or a translation holds ``q``."""
    condition = GlossaryTerm.organization_id == organization_id
    if language:
        condition = condition & (GlossaryTerm.language == language)
    if q:
        pattern = "%" + q.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        translated = select(GlossaryTranslation.term_id).where(
            func.lower(GlossaryTranslation.text).like(pattern, escape="\\")
        )
        condition = condition & or_(
            func.lower(GlossaryTerm.term).like(pattern, escape="\\"), GlossaryTerm.id.in_(translated)
        )
    return condition


def list_terms(actor, organization_id: str, query: dict) -> dict:
    """A page of the glossary's terms, by term; NotFound for non-members."""
    policy.require_organization_role(actor, organization_id)
    condition = _condition(organization_id, query.get("q"), query.get("language"))
    total = db.session.scalar(select(func.count()).select_from(GlossaryTerm).where(condition))
    rows = db.session.scalars(
        select(GlossaryTerm)
        .where(condition)
        .order_by(func.lower(GlossaryTerm.term), GlossaryTerm.term, GlossaryTerm.language, GlossaryTerm.id)
        .limit(query["limit"])
        .offset(query["offset"])
    ).all()
    translations = _translations_of([row.id for row in rows])
    return {
        "terms": [_describe(row, translations[row.id]) for row in rows],
        "total": total,
        "limit": query["limit"],
        "offset": query["offset"],
    }


def get_term(actor, organization_id: str, term_id: str) -> dict:
    policy.require_organization_role(actor, organization_id)
    row = _term(organization_id, term_id)
    return _describe(row, _translations_of([row.id])[row.id])


def create_term(actor, organization_id: str, data: dict) -> dict:
    """Add a term; Conflict when the language has it already, BadRequest past the limits."""
    with unit_of_work():
        policy.require_organization_permission(actor, organization_id, policy.MANAGE_GLOSSARY)
        translations = _checked_translations(data["translations"])
        if _term_count(organization_id) >= MAX_TERMS:
            raise BadRequest(f"term: the glossary has {MAX_TERMS:,} terms, its limit.")
        now = utcnow()
        row = GlossaryTerm(
            organization_id=organization_id,
            language=data["language"],
            term=data["term"],
            part_of_speech=data["partOfSpeech"],
            note=data["note"],
            case_sensitive=data["caseSensitive"],
            forbidden=data["forbidden"],
            created_at=now,
            updated_at=now,
        )
        db.session.add(row)
        _flush_unique(row)
        _set_translations(row, translations)
        _changed(organization_id)
        db.session.flush()
        audit.record_term(actor, row, "glossary.term_created")
        return _describe(row, _translations_of([row.id])[row.id])


def update_term(actor, organization_id: str, term_id: str, data: dict) -> dict:
    """Change a term's fields (``translations``: the whole list); NotFound, Conflict."""
    with unit_of_work():
        policy.require_organization_permission(actor, organization_id, policy.MANAGE_GLOSSARY)
        row = _term(organization_id, term_id)
        for field, column in (
            ("language", "language"),
            ("term", "term"),
            ("partOfSpeech", "part_of_speech"),
            ("note", "note"),
            ("caseSensitive", "case_sensitive"),
            ("forbidden", "forbidden"),
        ):
            if field in data:
                setattr(row, column, data[field])
        row.updated_at = utcnow()
        _flush_unique(row)
        if "translations" in data:
            _set_translations(row, _checked_translations(data["translations"]))
        _changed(organization_id)
        db.session.flush()
        audit.record_term(actor, row, "glossary.term_updated", fields=data)
        return _describe(row, _translations_of([row.id])[row.id])


def delete_term(actor, organization_id: str, term_id: str) -> None:
    with unit_of_work():
        policy.require_organization_permission(actor, organization_id, policy.MANAGE_GLOSSARY)
        row = _term(organization_id, term_id)
        audit.record_term(actor, row, "glossary.term_deleted")
        db.session.delete(row)
        _changed(organization_id)


def _all_entries(organization_id: str) -> list[dict]:
    rows = db.session.scalars(
        select(GlossaryTerm)
        .where(GlossaryTerm.organization_id == organization_id)
        .order_by(GlossaryTerm.language, func.lower(GlossaryTerm.term), GlossaryTerm.term)
    ).all()
    translations = _translations_of([row.id for row in rows])
    return [_describe(row, translations[row.id]) for row in rows]


def export_glossary(actor, organization_id: str, format: str, source_language: str | None = None):
    """The glossary as a file: ``(bytes, media type, file name)``."""
    policy.require_organization_role(actor, organization_id)
    entries = _all_entries(organization_id)
    if format == "csv":
        return files.write_csv(entries), files.MEDIA_TYPES["csv"], "glossary.csv"
    if source_language is None:
        counts: dict[str, int] = {}
        for entry in entries:
            counts[entry["language"]] = counts.get(entry["language"], 0) + 1
        source_language = max(counts, key=counts.get) if counts else "en"
    return files.write_tbx(entries, source_language), files.MEDIA_TYPES["tbx"], "glossary.tbx"


def _language(text: str, where: str) -> str:
    try:
        return canonical_code(text)
    except ValueError as error:
        raise BadRequest(f"{where}: {error}") from None


def _clean_cell(text: str) -> str:
    return text[1:] if text[:1] == "'" and text[1:2] in ("=", "+", "-", "@") else text


def _text(value: str, where: str, limit: int = MAX_TERM, required: bool = True) -> str:
    value = _clean_cell(value or "")
    if required and not value.strip():
        raise BadRequest(f"{where}: must not be empty.")
    if len(value) > limit:
        raise BadRequest(f"{where}: must be at most {limit:,} characters.")
    if any(ord(c) < 32 or ord(c) == 127 for c in value) and limit == MAX_TERM:
        raise BadRequest(f"{where}: must not contain control characters.")
    if "\x00" in value:
        raise BadRequest(f"{where}: must not contain the NUL character.")
    return value.strip() if limit == MAX_TERM else value


def _validated_entry(entry: dict) -> dict:
    """A file's entry checked as the API checks a term; BadRequest naming its line."""
    where = f"line {entry.get('line')}"
    part = entry["partOfSpeech"]
    if part is not None and part not in PARTS_OF_SPEECH:
        # TBX files write other parts of speech too; they are kept as "other".
        part = "other"
    translations = []
    allowed: set[str] = set()
    for item in entry["translations"]:
        language = _language(item["language"], f"{where}: translation language")
        if not item["forbidden"]:
            if language in allowed:
                continue  # the first allowed translation of a language is the expected one
            allowed.add(language)
        translations.append(
            {
                "language": language,
                "text": _text(item["text"], f"{where}: translation"),
                "forbidden": item["forbidden"],
            }
        )
    if len(translations) > MAX_TRANSLATIONS:
        raise BadRequest(f"{where}: more than {MAX_TRANSLATIONS} translations.")
    return {
        "language": _language(entry["language"], f"{where}: language"),
        "term": _text(entry["term"], f"{where}: term"),
        "partOfSpeech": part,
        "note": _text(entry["note"], f"{where}: note", MAX_NOTE, required=False),
        "caseSensitive": entry["caseSensitive"],
        "forbidden": entry["forbidden"],
        "translations": _checked_translations(translations, f"{where}: translations"),
    }


def _read_file(format: str, content: str, source_language: str | None) -> list[dict]:
    data = content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content
    try:
        if format == "csv":
            entries = files.read_csv(data, MAX_TERMS)
        else:
            entries = files.read_tbx(data, MAX_TERMS, source_language)
    except FormatError as error:
        raise BadRequest(f"content: {error}") from None
    except UnicodeError:
        raise BadRequest("content: not UTF-8.") from None
    return [_validated_entry(entry) for entry in entries]


def _same(row: GlossaryTerm, translations: list[GlossaryTranslation], entry: dict) -> bool:
    stored = [
        {"language": t.language, "text": t.text, "forbidden": t.forbidden}
        for t in sorted(translations, key=lambda t: t.position)
    ]
    return (
        row.part_of_speech == entry["partOfSpeech"]
        and row.note == entry["note"]
        and row.case_sensitive == entry["caseSensitive"]
        and row.forbidden == entry["forbidden"]
        and stored == entry["translations"]
    )


def import_glossary(actor, organization_id: str, data: dict) -> dict:
    """Import a CSV or TBX file in one transaction: every entry is checked before anything is
    written (BadRequest naming the line); ``merge`` adds and changes terms, ``replace`` also
    deletes those the file lacks; a dry run answers the same counts and writes nothing."""
    entries = _read_file(data["format"], data["content"], data.get("sourceLanguage"))
    by_key: dict[tuple[str, str], dict] = {}
    for entry in entries:
        by_key[entry["language"], entry["term"]] = entry  # a term given twice: the last wins
    with unit_of_work():
        policy.require_organization_permission(actor, organization_id, policy.MANAGE_GLOSSARY)
        stored = db.session.scalars(
            select(GlossaryTerm).where(GlossaryTerm.organization_id == organization_id)
        ).all()
        translations = _translations_of([row.id for row in stored])
        existing = {(row.language, row.term): row for row in stored}
        created = [key for key in by_key if key not in existing]
        changed = [
            key
            for key in by_key
            if key in existing and not _same(existing[key], translations[existing[key].id], by_key[key])
        ]
        gone = (
            [row for key, row in existing.items() if key not in by_key] if data["mode"] == "replace" else []
        )
        kept = len(existing) - len(gone)
        if kept + len(created) > MAX_TERMS:
            raise BadRequest(f"content: the glossary would have more than {MAX_TERMS:,} terms, its limit.")
        result = {
            "dryRun": data["dryRun"],
            "created": len(created),
            "updated": len(changed),
            "unchanged": len(by_key) - len(created) - len(changed),
            "deleted": len(gone),
        }
        if data["dryRun"] or not (created or changed or gone):
            db.session.rollback()
            return result
        now = utcnow()
        for chunk in in_chunks([row.id for row in gone]):
            db.session.execute(delete(GlossaryTerm).where(GlossaryTerm.id.in_(chunk)))
        for key in changed:
            row, entry = existing[key], by_key[key]
            row.part_of_speech, row.note = entry["partOfSpeech"], entry["note"]
            row.case_sensitive, row.forbidden, row.updated_at = (
                entry["caseSensitive"],
                entry["forbidden"],
                now,
            )
            _set_translations(row, entry["translations"])
        for key in created:
            entry = by_key[key]
            # Ids made here: the new terms and their translations go in one flush.
            row = GlossaryTerm(
                id=new_id(),
                organization_id=organization_id,
                language=entry["language"],
                term=entry["term"],
                part_of_speech=entry["partOfSpeech"],
                note=entry["note"],
                case_sensitive=entry["caseSensitive"],
                forbidden=entry["forbidden"],
                created_at=now,
                updated_at=now,
            )
            db.session.add(row)
            _set_translations(row, entry["translations"], new=True)
        _changed(organization_id)
        counts = {name: value for name, value in result.items() if name != "dryRun"}
        audit.record(
            actor,
            organization_id,
            "glossary.imported",
            None,
            {"format": data["format"], "mode": data["mode"], **counts},
        )
        return result


def _project_glossary(project_id: str):
    return matching.project_glossary(SESSION_STATEMENTS, project_id)


def project_matches(actor, project_id: str, texts: list[str], language: str | None) -> list[dict]:
    """The glossary terms found in each of a project's source ``texts``, with their
    translations in ``language``; NotFound, Forbidden as for reading translations."""
    project, _ = policy.authorize(actor, project_id, policy.VIEW_GLOSSARY)
    glossary = _project_glossary(project_id)
    index = glossary.index(project.source_language) if glossary else None
    return [
        {
            "text": text,
            "terms": [matching.describe_match(entry, language) for entry in index.find(text)]
            if index
            else [],
        }
        for text in texts
    ]


def terms_in_source(project_id: str, source_language: str | None, source: str, language: str) -> list[dict]:
    """The terms found in a key's source text, as ``describe_match`` (no permission check:
    for callers that checked it)."""
    glossary = _project_glossary(project_id)
    if glossary is None:
        return []
    return [
        matching.describe_match(entry, language) for entry in glossary.index(source_language).find(source)
    ]


def suggestion_items(found: list[dict]) -> list[dict]:
    """The suggestions' glossary items of the terms found in a source text."""
    items = []
    for match in found[:MAX_SUGGESTED]:
        if match["translation"]:
            items.append(
                {
                    "source": "glossary",
                    "term": match["term"],
                    "translation": match["translation"],
                    "forbidden": False,
                    "note": match["note"],
                }
            )
        items += [
            {
                "source": "glossary",
                "term": match["term"],
                "translation": text,
                "forbidden": True,
                "note": match["note"],
            }
            for text in match["forbiddenTranslations"]
        ]
    return items


def context_lines(found: list[dict]) -> list[str]:
    """The machine translation context's lines for the terms found in the source text only."""
    lines = []
    for match in found[:MAX_SUGGESTED]:
        if match["translation"]:
            line = f"Glossary: translate {match['term']!r} as {match['translation']!r}"
            if match["forbiddenTranslations"]:
                line += ", never as " + ", ".join(repr(text) for text in match["forbiddenTranslations"])
            lines.append(line + ".")
        elif match["forbiddenTranslations"]:
            lines.append(
                f"Glossary: never translate {match['term']!r} as "
                + ", ".join(repr(text) for text in match["forbiddenTranslations"])
                + "."
            )
    return lines


def search_project_glossary(
    actor, project_id: str, query: str, language: str | None, limit: int = 50
) -> list[dict]:
    """The terms of a project's organization glossary containing ``query`` (any case), for
    MCP; NotFound, Forbidden as for reading translations."""
    project, _ = policy.authorize(actor, project_id, policy.VIEW_GLOSSARY)
    found = list_terms_of(
        project.organization_id, {"q": query, "limit": limit, "offset": 0, "language": None}
    )
    if language:
        for term in found:
            term["translations"] = [t for t in term["translations"] if t["language"] == language]
    return found


def list_terms_of(organization_id: str, query: dict) -> list[dict]:
    rows = db.session.scalars(
        select(GlossaryTerm)
        .where(_condition(organization_id, query.get("q"), query.get("language")))
        .order_by(func.lower(GlossaryTerm.term), GlossaryTerm.term, GlossaryTerm.id)
        .limit(query["limit"])
    ).all()
    translations = _translations_of([row.id for row in rows])
    return [_describe(row, translations[row.id]) for row in rows]
