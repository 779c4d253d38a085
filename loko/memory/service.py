"""Translation memory: lookups (one text, or many for pre-translation), a project's lookup,
the TMX import (a background job) and export.

A memory entry is a key's value in its project's source language with the same key's
value in another language, and every unit of the TMX files imported into the organization.
Each lookup reads only what its caller may (``policy.memory_reach``): the projects whose
translations they may view, and the organization's shared memory (the projects that share
their values, ``memory_shared``, and the TMX units) for its members and its projects' keys.
Exact matches are found by the hash of the normalised text (``index.normalise``: each
placeholder one character); fuzzy ones by trigram candidates from the index within the
length window that the minimum score allows, re-scored with rapidfuzz's ``ratio``.
"""

import base64
from datetime import datetime

import orjson
from sqlalchemy import select

from loko.auth import policy
from loko.auth.actors import actor_record
from loko.database import in_chunks, unit_of_work
from loko.errors import BadRequest, Conflict, NotFound
from loko.extensions import db
from loko.jobs.models import Job
from loko.jobs.service import describe, enqueue
from loko.memory import index, placeables, tmx
from loko.memory.models import MemoryUnit
from loko.projects.models import Project
from loko.translations.models import HistoryEntry, Translation, TranslationValue

IMPORT_JOB = "memory-import"
REFRESH_JOB = "memory-refresh"
IMPORT_ATTEMPTS = 3
DEFAULT_LIMIT = 5
MAX_LIMIT = 50
DEFAULT_MIN_SCORE = 50
MAX_TEXT = 2000
MAX_UNITS = 500_000
MAX_BATCH = 10_000
# Fuzzy candidates: fragments of the text looked up, entries read per fragment, and the
# entries (most fragments shared first) re-scored.
FRAGMENTS = 8
PER_FRAGMENT = 64
RESCORED = 100
# PostgreSQL's shingles count the entries of the nearest lengths once per common piece, as
# high as a near-duplicate may be: twice as many are re-scored (they cost less to find).
RESCORED_SHINGLED = 200
UNIT_BATCH = 5_000


def _window(length: int, min_score: int) -> tuple[int, int]:
    """The normalised lengths a text of ``length`` can match with ``min_score`` or more:
    ratio = 2 * matches / (both lengths) is at most 2 * shorter / (both lengths)."""
    share = max(min_score, 1) / 100
    return int(length * share / (2 - share)), int(length * (2 - share) / share) + 1


def _score(normalised: str, other: str, cutoff: int) -> int:
    from rapidfuzz import fuzz  # the fuzzy scorer, loaded by the first lookup

    return round(fuzz.ratio(normalised, other, score_cutoff=cutoff))


def _value_rows(
    organization_id: str, source_language: str, target_language: str, translation_ids, reach
) -> list:
    """The keys' source and target values where ``reach`` may read them. Each statement
    reads a primary key by the ids given: no plan walks a project's keys, statistics or not."""
    projects = {
        row[0]: row[1]
        for row in db.session.execute(
            select(Project.id, Project.name).where(
                Project.organization_id == organization_id,
                Project.source_language == source_language,
            )
        ).all()
        if reach.allows_project(row[0])
    }
    found = []
    for chunk in in_chunks(sorted(translation_ids), 1000):
        keys = {
            row[0]: row
            for row in db.session.execute(
                select(
                    Translation.id,
                    Translation.key,
                    Translation.file_name,
                    Translation.project_id,
                    Translation.deleted_at,
                ).where(Translation.id.in_(chunk))
            ).all()
            if row[4] is None and row[3] in projects
        }
        if not keys:
            continue
        values: dict[str, dict] = {}
        for translation_id, language, value, updated_at in db.session.execute(
            select(
                TranslationValue.translation_id,
                TranslationValue.language_code,
                TranslationValue.value,
                TranslationValue.updated_at,
            ).where(
                TranslationValue.translation_id.in_(list(keys)),
                TranslationValue.language_code.in_([source_language, target_language]),
            )
        ).all():
            values.setdefault(translation_id, {})[language] = (value, updated_at)
        for translation_id, languages in values.items():
            if source_language not in languages or not languages.get(target_language, ("",))[0]:
                continue
            _, key, file_name, project_id, _ = keys[translation_id]
            text, updated_at = languages[target_language]
            found.append(
                {
                    "text": text,
                    "source": languages[source_language][0],
                    "origin": "project",
                    "projectId": project_id,
                    "projectName": projects[project_id],
                    "file": file_name,
                    "key": key,
                    "translationId": translation_id,
                    "updatedAt": updated_at,
                }
            )
    return found


def _unit_rows(organization_id: str, source_language: str, target_language: str, unit_ids) -> list:
    rows = []
    for chunk in in_chunks(sorted(unit_ids), 1000):
        rows += db.session.execute(
            select(MemoryUnit.id, MemoryUnit.source, MemoryUnit.target, MemoryUnit.created_at).where(
                MemoryUnit.id.in_(chunk),
                MemoryUnit.organization_id == organization_id,
                MemoryUnit.source_language == source_language,
                MemoryUnit.target_language == target_language,
            )
        ).all()
    return [
        {
            "text": row[2],
            "source": row[1],
            "origin": "tmx",
            "projectId": None,
            "projectName": None,
            "file": None,
            "key": None,
            "translationId": None,
            "updatedAt": row[3],
        }
        for row in rows
    ]


def _owners(entry_ids) -> tuple[set[str], set[str]]:
    """The keys (translation ids) and TMX units behind index entries."""
    translation_ids, unit_ids = set(), set()
    for chunk in in_chunks(sorted(entry_ids), 2000):
        marks = ", ".join("?" for _ in chunk)
        for translation_id, unit_id in index.fetch(
            f"SELECT translation_id, unit_id FROM memory_entries WHERE id IN ({marks})",  # noqa: S608
            chunk,
        ):
            if translation_id is not None:
                translation_ids.add(translation_id)
            else:
                unit_ids.add(unit_id)
    return translation_ids, unit_ids


def _matches(
    organization_id, source_language, target_language, translation_ids, unit_ids, reach
) -> list[dict]:
    """The keys' and units' entries as they are now, those ``reach`` may read."""
    found = (
        _value_rows(organization_id, source_language, target_language, translation_ids, reach)
        if translation_ids
        else []
    )
    if unit_ids and reach.units:
        found += _unit_rows(organization_id, source_language, target_language, unit_ids)
    return found


def _best_sources(translation_ids, unit_ids, source_language, normalised, min_score, count, exclude):
    """The ``count`` keys and units whose current source text scores best (and at least
    ``min_score``): one primary-key read of the source values, before anything else is read."""
    scored = []
    for chunk in in_chunks(sorted(translation_ids), 1000):
        for translation_id, value in db.session.execute(
            select(TranslationValue.translation_id, TranslationValue.value).where(
                TranslationValue.translation_id.in_(chunk), TranslationValue.language_code == source_language
            )
        ).all():
            if exclude and translation_id in exclude:
                continue
            score = _score(normalised, index.normalise(value), min_score)
            if score >= min_score:
                scored.append((score, "value", translation_id))
    for chunk in in_chunks(sorted(unit_ids), 1000):
        for unit_id, source in db.session.execute(
            select(MemoryUnit.id, MemoryUnit.source).where(MemoryUnit.id.in_(chunk))
        ).all():
            score = _score(normalised, index.normalise(source), min_score)
            if score >= min_score:
                scored.append((score, "unit", unit_id))
    scored.sort(key=lambda item: -item[0])
    best = scored[:count]
    return {item[2] for item in best if item[1] == "value"}, {item[2] for item in best if item[1] == "unit"}


def _tail(organization_id: str, source_language: str, reach) -> set[str]:
    """Keys whose source value was written after the index's watermark, in the projects
    ``reach`` may read."""
    conditions = [
        HistoryEntry.id > index.indexed_to(),
        Project.organization_id == organization_id,
        (HistoryEntry.language == source_language) | HistoryEntry.language.is_(None),
    ]
    if reach.projects is not None:
        if not reach.projects:
            return set()
        conditions.append(HistoryEntry.project_id.in_(sorted(reach.projects)))
    rows = db.session.execute(
        select(HistoryEntry.translation_id)
        .distinct()
        .join(Project, Project.id == HistoryEntry.project_id)
        .where(*conditions)
    ).all()
    return {row[0] for row in rows}


def _ranked(found: list[dict], text: str, normalised: str, min_score: int, limit: int, exclude) -> list[dict]:
    best: dict[tuple, dict] = {}
    for match in found:
        if exclude and match["translationId"] in exclude:
            continue
        score = _score(normalised, index.normalise(match["source"]), min_score)
        if score < min_score:
            continue
        adapted = _adapted({**match, "score": score}, text)
        if adapted["score"] < min_score:
            continue
        identity = (match["origin"], match["translationId"] or match["source"] + "\x00" + match["text"])
        best[identity] = adapted
    ordered = sorted(best.values(), key=lambda m: (-m["score"], -_timestamp(m["updatedAt"])))
    return ordered[:limit]


def _adapted(match: dict, text: str) -> dict:
    """The match with the text's placeholders in its translation where its source differs
    from the text only in theirs (``adapted``); where no one-to-one mapping exists, as it is
    with ``placeholdersDiffer`` and a score below 100, which pre-translation never writes."""
    result = placeables.adapt(match["source"], match["text"], text)
    if result is None:
        return {**match, "score": min(match["score"], 99), "adapted": False, "placeholdersDiffer": True}
    translation, adapted = result
    return {**match, "text": translation, "adapted": adapted, "placeholdersDiffer": False}


def _timestamp(value) -> float:
    return value.timestamp() if isinstance(value, datetime) else 0.0


def lookup(
    organization_id: str,
    source_language: str,
    target_language: str,
    text: str,
    *,
    reach: policy.MemoryReach,
    limit: int = DEFAULT_LIMIT,
    min_score: int = DEFAULT_MIN_SCORE,
    exclude=None,
) -> list[dict]:
    """The best matches of ``text`` (score 0-100, best first, at most ``limit``) among the
    entries ``reach`` (``policy.memory_reach``) may read: each with the translation
    ``text``, its ``source``, ``score``, ``origin`` ("project" or "tmx"), the project, file
    and key it comes from and ``updatedAt``. ``exclude``: keys (translation ids) left out,
    such as the one being translated."""
    normalised = index.normalise(text)
    if not normalised.strip() or reach == policy.NO_MEMORY:
        return []
    scope = index.scopes(organization_id, [source_language]).get(source_language)
    entry_ids: set[int] = set()
    if scope is not None:
        entry_ids.update(entry for _, entry in index.digests(scope, [index.digest(normalised)], reach))
        if min_score < 100:
            shortest, longest = _window(len(normalised), min_score)
            hits = index.candidates(
                scope,
                normalised,
                shortest,
                longest,
                per_fragment=PER_FRAGMENT,
                fragments_max=FRAGMENTS,
                reach=reach,
            )
            length = len(normalised)
            ranked = sorted(hits.items(), key=lambda item: (-item[1], abs(index.length_of(item[0]) - length)))
            rescored = RESCORED_SHINGLED if index.shingled(normalised) else RESCORED
            entry_ids.update(entry for entry, _ in ranked[:rescored])
    translation_ids, unit_ids = _owners(entry_ids)
    translation_ids |= _tail(organization_id, source_language, reach)
    # A few more than asked: some may lack the target.
    translation_ids, unit_ids = _best_sources(
        translation_ids, unit_ids, source_language, normalised, min_score, limit * 4, exclude
    )
    found = _matches(organization_id, source_language, target_language, translation_ids, unit_ids, reach)
    return _ranked(found, text, normalised, min_score, limit, exclude)


def lookup_many(
    organization_id: str,
    source_language: str,
    target_language: str,
    texts,
    *,
    reach: policy.MemoryReach,
    min_score: int = 100,
) -> dict[str, dict]:
    """The best match of each text that has one with ``min_score`` or more, among the
    entries ``reach`` may read: exact ones by hash for all texts at once, fuzzy ones
    (``min_score`` below 100) for the rest."""
    texts = list(dict.fromkeys(text for text in texts if text and text.strip()))
    if reach == policy.NO_MEMORY:
        return {}
    normalised = {text: index.normalise(text) for text in texts}
    by_digest: dict[int, list[str]] = {}
    for text, form in normalised.items():
        by_digest.setdefault(index.digest(form), []).append(text)
    scope = index.scopes(organization_id, [source_language]).get(source_language)
    entry_ids = (
        {entry for _, entry in index.digests(scope, list(by_digest), reach)} if scope is not None else set()
    )
    translation_ids, unit_ids = _owners(entry_ids)
    translation_ids |= _tail(organization_id, source_language, reach)
    found = _matches(organization_id, source_language, target_language, translation_ids, unit_ids, reach)
    best: dict[str, dict] = {}
    for match in sorted(found, key=lambda m: _timestamp(m["updatedAt"])):
        for text in by_digest.get(index.digest(index.normalise(match["source"])), ()):
            adapted = _adapted({**match, "score": 100}, text)
            if not adapted["placeholdersDiffer"]:
                best[text] = adapted
    if min_score < 100:
        for text in texts:
            if text not in best:
                matches = lookup(
                    organization_id,
                    source_language,
                    target_language,
                    text,
                    reach=reach,
                    limit=3,
                    min_score=min_score,
                )
                kept = [match for match in matches if not match["placeholdersDiffer"]]
                if kept:
                    best[text] = kept[0]
    return best


def project_lookup(actor, project_id: str, text: str, language: str, limit: int, min_score: int) -> dict:
    """Matches for ``text`` in the project's source language translated into ``language``,
    from the memory the caller may read in the project's organization (who may see the
    project's translations). Conflict when the project has no source language, or
    ``language`` is it."""
    project, _ = policy.authorize(actor, project_id, policy.VIEW_TRANSLATIONS)
    source_language = _source_of(project, language)
    matches = lookup(
        project.organization_id,
        source_language,
        language,
        text,
        reach=policy.memory_reach(actor, project.organization_id, language),
        limit=limit,
        min_score=min_score,
    )
    return {"sourceLanguage": source_language, "language": language, "matches": matches}


def _source_of(project: Project, language: str) -> str:
    if project.source_language is None:
        raise Conflict("language: the project has no source language to look up from.")
    if language == project.source_language:
        raise Conflict(f"language: {language} is the project's source language.")
    return project.source_language


def suggestions_for(
    actor, project: Project, translation_id: str, source_text: str, language: str
) -> list[dict]:
    """The memory's matches for a key that ``actor`` may read, as items of the suggestions
    answer (the key itself left out)."""
    if project.source_language is None:
        return []
    matches = lookup(
        project.organization_id,
        project.source_language,
        language,
        source_text,
        reach=policy.memory_reach(actor, project.organization_id, language),
        exclude={translation_id},
    )
    return [
        {
            "source": "memory",
            "score": match["score"],
            "text": match["text"],
            "sourceText": match["source"],
            "origin": match["origin"],
            "project": match["projectName"],
            "projectId": match["projectId"],
            "file": match["file"],
            "key": match["key"],
            "updatedAt": match["updatedAt"],
            "adapted": match["adapted"],
            "placeholdersDiffer": match["placeholdersDiffer"],
        }
        for match in matches
    ]


# -- TMX ---------------------------------------------------------------------------------


def export_tmx(actor, organization_id: str) -> bytes:
    """Every memory entry of the organization as a TMX 1.4 file (owners and admins, who may
    view every project): every project's values, shared or not, and the imported units."""
    policy.require_organization_permission(actor, organization_id, policy.MANAGE_MEMORY)
    rows = db.session.execute(
        select(
            Translation.id, Project.source_language, TranslationValue.language_code, TranslationValue.value
        )
        .join(Project, Project.id == Translation.project_id)
        .join(TranslationValue, TranslationValue.translation_id == Translation.id)
        .where(
            Project.organization_id == organization_id,
            Project.source_language.is_not(None),
            Translation.deleted_at.is_(None),
            TranslationValue.value != "",
        )
        .order_by(Translation.id, TranslationValue.language_code)
    ).all()
    keys: dict[str, tuple[str, dict]] = {}
    for translation_id, source_language, language, value in rows:
        keys.setdefault(translation_id, (source_language, {}))[1][language] = value
    units = []
    for source_language, values in keys.values():
        if source_language in values and len(values) > 1:
            others = [(language, text) for language, text in values.items() if language != source_language]
            units.append((source_language, [(source_language, values[source_language]), *others]))
    for unit in db.session.execute(
        select(MemoryUnit.source_language, MemoryUnit.target_language, MemoryUnit.source, MemoryUnit.target)
        .where(MemoryUnit.organization_id == organization_id)
        .order_by(MemoryUnit.created_at, MemoryUnit.id)
    ).all():
        units.append((unit[0], [(unit[0], unit[2]), (unit[1], unit[3])]))
    header = units[0][0] if units else "*all*"
    return tmx.write(units, header if all(unit[0] == header for unit in units) else "*all*")


def enqueue_import(actor, organization_id: str, data: bytes) -> dict:
    """Queue a TMX import into the organization's memory (owners and admins); the job as
    ``jobs.service.describe`` tells it. BadRequest for an empty upload."""
    if not data:
        raise BadRequest("file: the upload is empty.")
    with unit_of_work():
        policy.require_organization_permission(actor, organization_id, policy.MANAGE_MEMORY)
        job = enqueue(
            IMPORT_JOB,
            {
                "actor": actor_record(actor),
                "organizationId": organization_id,
                "data": base64.b64encode(data).decode(),
            },
            max_attempts=IMPORT_ATTEMPTS,
        )
        return describe(job)


def import_tmx(organization_id: str, data: bytes) -> dict:
    """Add a TMX file's units to the organization's memory, indexed in the same transaction;
    BadRequest when the file is not TMX."""
    try:
        units = tmx.read(data, MAX_UNITS)
    except tmx.TmxError as error:
        raise BadRequest(f"file: {error}") from None
    units = [unit for unit in units if len(unit.source) <= MAX_TEXT * 5 and len(unit.target) <= MAX_TEXT * 5]
    added = 0
    with unit_of_work():
        for chunk in in_chunks(units, UNIT_BATCH):
            records = [
                MemoryUnit(
                    organization_id=organization_id,
                    source_language=unit.source_language,
                    target_language=unit.target_language,
                    source=unit.source,
                    target=unit.target,
                )
                for unit in chunk
            ]
            db.session.add_all(records)
            db.session.flush()
            index.index_units(
                [(record.id, organization_id, record.source_language, record.source) for record in records]
            )
            added += len(records)
    return {"organizationId": organization_id, "unitsAdded": added}


def import_job(actor, organization_id: str, job_id: str) -> dict:
    """One TMX import job of the organization (owners and admins). NotFound otherwise."""
    policy.require_organization_permission(actor, organization_id, policy.MANAGE_MEMORY)
    job = db.session.get(Job, job_id)
    if job is None or job.kind != IMPORT_JOB:
        raise NotFound("Job not found.")
    described = describe(job)
    owner = (described["result"] or {}).get("organizationId")
    if owner is None and job.payload:
        owner = orjson.loads(job.payload).get("organizationId")
    if owner != organization_id:
        raise NotFound("Job not found.")
    return described


def refresh_index() -> dict:
    """Index the values written since the last refresh (the background job's work)."""
    return index.refresh()
