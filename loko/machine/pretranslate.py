"""Pre-translation: fill what is missing in some languages of a project (all of it, some
files, or the keys an editor filter finds) from the translation memory and/or a machine
translation provider, as a background job.

Only missing values are filled: keys with a source text and no value, or an empty one, in
the language. The job reads what is missing once, then works language by language: memory
matches first (one batch lookup per language), then the provider for the rest, several texts
per request as the provider takes them and a few requests at a time (``CONCURRENCY``), each
on a thread of its own, never inside a transaction; a 429 is waited out as its Retry-After
says (``providers.base``). A result whose placeholders differ from the source's is refused,
never saved. Each batch of results is written in a transaction of its own through
``translations.service.fill_missing``, which reads the values again and skips any written
meanwhile; the checks run as on every write, the values wait for a review
(``needs-review``), and every batch belongs to the one operation of the job, undone as one.
A cancelled job stops between batches. The report counts exactly what was written, and names
each value it did not write and why (the first ``NOT_WRITTEN_LISTED``). ICU plural
and select messages go to the provider branch by branch, as whole sentences, and come back
in the target language's plural categories (``loko.machine.choices``); one that cannot be
made whole sentences is not sent, and counted so.

A provider that sees images (``seesImages``, a language model) is sent each key's screenshot
with its request, as a suggestion is (``screenshots.model_picture``: cut around the key's
region, at most ``LOKO_SCREENSHOT_MODEL_SIDE`` pixels a side, one image part at detail
``low``, about 85 tokens): a key on an active screenshot goes alone in its request, with
the picture and a context naming the key and its region, so each image is sent once and
with the one text it shows; keys on no screenshot go in batches as before. The pictures are
read ``PICTURES_READ`` keys at a time, one query each, as their requests are sent. A provider
not marked, or a key on no screenshot (or only on trashed ones), is sent no image.
"""

import math
from collections import defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from itertools import chain

from flask import current_app
from sqlalchemy import and_, exists, or_, select
from sqlalchemy.orm import aliased

from loko.audit import service as audit
from loko.auth import policy
from loko.auth.actors import actor_record
from loko.checks.placeholders import read as read_placeholders
from loko.database import new_id, read_snapshot, unit_of_work
from loko.errors import BadRequest, Conflict, NotFound
from loko.extensions import db
from loko.jobs import service as jobs
from loko.languages.service import file_names, language_rows
from loko.machine import choices
from loko.machine import service as machine
from loko.machine.models import MachineProvider
from loko.projects.service import link_of
from loko.proposals import service as proposals
from loko.screenshots import service as screenshots
from loko.tags.filters import TagFilter
from loko.translations.models import PRE_TRANSLATED, Translation, TranslationValue
from loko.translations.queries import contains_text, has_inherited_value
from loko.translations.service import fill_missing
from loko.translations.writing import Refused, agent_writes

PRETRANSLATE_JOB = "pretranslate"
OPERATION_KIND = "pretranslate"
MEMORY_UNAVAILABLE = "sources.memory: translation memory is not available"
# Requests in flight at once to one provider: enough to hide a slow answer, few enough to
# stay within the public services' rate limits (a 429 is waited out all the same).
CONCURRENCY = {"deepl": 4, "libretranslate": 2, "openai": 4}
DEFAULT_CONCURRENCY = 2
MEMORY_WRITES = 2000  # memory matches written per transaction
ERRORS_LISTED = 20
NOT_WRITTEN_LISTED = 1000  # values named in the report; the counts go on past it
PICTURES_READ = 8  # keys whose screenshots are read (and cut) at a time, as they are sent
SKIPPED_REASON = "written meanwhile (or its key went to the trash): kept as it was"


@dataclass(frozen=True)
class Request:
    """What to fill: ``languages``, narrowed to ``files`` and an editor filter (``search``,
    ``changed_since``), from the memory (matches scoring at least ``min_score``; None: not
    asked) and/or the provider ``provider_id``."""

    languages: tuple[str, ...]
    files: tuple[str, ...] = ()
    search: str | None = None
    changed_since: date | None = None
    min_score: int | None = None
    provider_id: str | None = None
    # Proposals (``loko.proposals``) instead of values, for a reviewer to accept.
    as_proposals: bool = False
    tags: tuple[str, ...] = ()
    exclude_tags: tuple[str, ...] = ()

    @classmethod
    def from_fields(cls, data: dict) -> "Request":
        """From a request body (REST, MCP, the page's form) loaded by ``PretranslateIn``."""
        chosen = data.get("filter") or {}
        sources = data["sources"]
        memory = sources.get("memory")
        return cls(
            languages=tuple(dict.fromkeys(data["languages"])),
            files=tuple(dict.fromkeys(data.get("files") or ())),
            search=chosen.get("search"),
            changed_since=chosen.get("changedSince"),
            min_score=None if memory is None else memory["minScore"],
            provider_id=sources.get("provider"),
            as_proposals=bool(data.get("asProposals")),
            tags=tuple(dict.fromkeys(chosen.get("tags") or ())),
            exclude_tags=tuple(dict.fromkeys(chosen.get("excludeTags") or ())),
        )

    def payload(self) -> dict:
        return {
            "languages": list(self.languages),
            "files": list(self.files),
            "search": self.search,
            "changedSince": None if self.changed_since is None else self.changed_since.isoformat(),
            "minScore": self.min_score,
            "providerId": self.provider_id,
            "asProposals": self.as_proposals,
            "tags": list(self.tags),
            "excludeTags": list(self.exclude_tags),
        }

    @classmethod
    def from_payload(cls, payload: dict) -> "Request":
        since = payload.get("changedSince")
        return cls(
            languages=tuple(payload["languages"]),
            files=tuple(payload.get("files") or ()),
            search=payload.get("search"),
            changed_since=None if since is None else date.fromisoformat(since),
            min_score=payload.get("minScore"),
            provider_id=payload.get("providerId"),
            as_proposals=bool(payload.get("asProposals")),
            tags=tuple(payload.get("tags") or ()),
            exclude_tags=tuple(payload.get("excludeTags") or ()),
        )


@dataclass(frozen=True)
class Missing:
    """One value to fill: a key's source text, wanted in ``language``."""

    translation_id: str
    file_name: str
    key: str
    source: str


@dataclass
class Report:
    """What the job did, value by value: each missing value is counted once."""

    missing: int = 0
    from_memory: int = 0
    from_provider: int = 0
    refused: int = 0  # a result whose placeholders differ from the source's
    refused_by_checks: int = 0  # a check at "refuse" found something in it
    failed: int = 0  # the provider failed for it
    skipped: int = 0  # written meanwhile (or its key left for the trash)
    unmatched: int = 0  # no memory match, and no provider asked
    not_sent: int = 0  # an ICU plural or select, never sent to the provider
    # Proposals made instead of values: the job writes proposals, or a reviewed value the
    # project protects was found empty (never overwritten).
    proposed: int = 0
    operation_id: str | None = None
    errors: list[str] = field(default_factory=list)
    # Each value not written: {translationId, fileName, key, language, outcome, reason}.
    not_written: list[dict] = field(default_factory=list)
    not_written_truncated: bool = False
    request: dict = field(default_factory=dict)  # what was asked: languages, files, provider

    @property
    def done(self) -> int:
        return (
            self.from_memory
            + self.from_provider
            + self.refused
            + self.refused_by_checks
            + self.failed
            + self.skipped
            + self.unmatched
            + self.not_sent
            + self.proposed
        )

    def error(self, message: str) -> None:
        if len(self.errors) < ERRORS_LISTED and message not in self.errors:
            self.errors.append(message)

    def name(self, item: Missing, language: str, outcome: str, reason: str) -> None:
        """List ``item`` as not written in ``language`` (``outcome``: the count it is in)."""
        if len(self.not_written) >= NOT_WRITTEN_LISTED:
            self.not_written_truncated = True
            return
        self.not_written.append(
            {
                "translationId": item.translation_id,
                "fileName": item.file_name,
                "key": item.key,
                "language": language,
                "outcome": outcome,
                "reason": reason,
            }
        )

    def answer(self) -> dict:
        return {
            "missing": self.missing,
            "filled": self.from_memory + self.from_provider,
            "fromMemory": self.from_memory,
            "fromProvider": self.from_provider,
            "refused": self.refused,
            "refusedByChecks": self.refused_by_checks,
            "failed": self.failed,
            "skipped": self.skipped,
            "unmatched": self.unmatched,
            "notSent": self.not_sent,
            "proposed": self.proposed,
            "operationId": self.operation_id,
            "errors": self.errors,
            "notWritten": self.not_written,
            "notWrittenTruncated": self.not_written_truncated,
            "request": self.request,
        }


# -- Starting ------------------------------------------------------------------------------


def start(actor, project_id: str, data: dict) -> dict:
    """Queue a pre-translation job (the job as the jobs API shows it), or with ``dryRun``
    answer what it would fill and what it would cost, calling no provider. Forbidden or
    NotFound as the policy decides; Conflict when the project has no source language;
    BadRequest naming the field for a language, file or provider the project does not
    have, or the memory when it is not available."""
    request = Request.from_fields(data)
    if data.get("dryRun"):
        return {"dryRun": True, **estimate(actor, project_id, request)}
    with unit_of_work():
        project, permissions = policy.authorize(actor, project_id, policy.PRETRANSLATE)
        _require_languages(permissions, request)
        provider = _validate(project, request)
        asked = _asked(request, None if provider is None else provider.name)
        job = jobs.enqueue(
            PRETRANSLATE_JOB,
            {
                "actor": actor_record(actor),
                "request": request.payload(),
                "operationId": new_id(),
                "about": asked,
            },
            project_id=project_id,
            max_attempts=3,
        )
        details = {**asked, "search": request.search, "jobId": job.id}
        audit.record_for_project(actor, project, "pretranslation.started", details=details)
        return {"dryRun": False, "job": jobs.describe(job)}


def _require_languages(permissions, request: Request) -> None:
    """A job writing values needs the right to write them in each language; one writing
    proposals, the right to propose there (a language whose values only change through
    proposals too)."""
    if not request.as_proposals:
        policy.require_languages(permissions, request.languages)
        return
    for language in request.languages:
        policy.require_proposal_language(permissions, language)


def _asked(request: Request, provider_name: str | None) -> dict:
    """What a job was asked, as its report and the Jobs page name it."""
    return {
        "languages": list(request.languages),
        "files": list(request.files),
        "provider": provider_name,
        "memory": request.min_score,
    }


def _validate(project, request: Request) -> MachineProvider | None:
    """The request's languages, files and sources checked against the project; its provider."""
    if request.min_score is None and request.provider_id is None:
        raise BadRequest("sources: choose the memory, a provider, or both.")
    source = project.source_language
    if source is None:
        raise Conflict("languages: the project has no source language to translate from.")
    codes = {language["code"] for language in language_rows(project.id)}
    for index, code in enumerate(request.languages):
        if code not in codes:
            raise BadRequest(f"languages.{index}: the project has no language {code!r}.")
        if code == source:
            raise BadRequest(f"languages.{index}: {code} is the project's source language.")
    if request.files:
        known = set(file_names(project.id))
        for index, name in enumerate(request.files):
            if name not in known:
                raise BadRequest(f"files.{index}: the project has no file {name!r}.")
    if request.min_score is not None and _memory() is None:
        raise BadRequest(MEMORY_UNAVAILABLE)
    if request.provider_id is None:
        return None
    provider = _named_provider(project.organization_id, request.provider_id)
    if provider is None:
        raise BadRequest("sources.provider: the organization has no such provider.")
    if not provider.enabled:
        raise BadRequest(f"sources.provider: the provider {provider.name} is disabled.")
    return provider


def _named_provider(organization_id: str, chosen: str) -> MachineProvider | None:
    """The organization's provider with the id ``chosen``, or else the first named so."""
    try:
        return machine.provider_of(organization_id, chosen)
    except NotFound:
        pass
    return db.session.scalars(
        select(MachineProvider)
        .where(MachineProvider.organization_id == organization_id, MachineProvider.name == chosen)
        .order_by(MachineProvider.created_at, MachineProvider.id)
        .limit(1)
    ).first()


def options(actor, project_id: str) -> dict:
    """What a pre-translation of the project can choose from: its languages but the source,
    its files, the organization's enabled providers (``{id, name, kind}``, no settings) and
    whether the memory is available. A caller limited to some languages is offered those
    only. Forbidden or NotFound as the policy decides."""
    project, permissions = policy.authorize(actor, project_id, policy.PRETRANSLATE)
    providers = db.session.execute(
        select(MachineProvider.id, MachineProvider.name, MachineProvider.kind)
        .where(MachineProvider.organization_id == project.organization_id, MachineProvider.enabled.is_(True))
        .order_by(MachineProvider.created_at, MachineProvider.id)
    ).all()
    return {
        "source": project.source_language,
        "languages": [
            row
            for row in language_rows(project.id)
            if row["code"] != project.source_language and permissions.may_edit_language(row["code"])
        ],
        "files": file_names(project.id),
        "providers": [{"id": id_, "name": name, "kind": kind} for id_, name, kind in providers],
        "memory": _memory() is not None,
    }


# -- The memory source ---------------------------------------------------------------------


def _memory():
    """The translation memory's service module, or None where it is not installed."""
    try:
        from loko.memory import service as memory
    except ImportError:
        return None
    return memory if hasattr(memory, "lookup_many") else None


def from_memory(plan: "Plan", target: str, texts: list[str], min_score: int) -> dict:
    """``{source text: translation}`` for the texts the memory the caller may read has a
    match for scoring at least ``min_score`` (the best one)."""
    memory = _memory()
    if memory is None:
        raise BadRequest(MEMORY_UNAVAILABLE)
    matches = memory.lookup_many(
        plan.organization_id, plan.source, target, texts, reach=plan.reaches[target], min_score=min_score
    )
    return {text: match["text"] for text, match in matches.items() if match and match.get("text")}


# -- What is missing -----------------------------------------------------------------------


def _missing_in(project, request: Request, language: str) -> list[Missing]:
    """The keys chosen by ``request`` with a source text and no value (or an empty one) in
    ``language``, nor one the linked project lends it: one query."""
    source_value, value = aliased(TranslationValue), aliased(TranslationValue)
    conditions = [
        Translation.project_id == project.id,
        Translation.deleted_at.is_(None),
        source_value.value != "",
        or_(value.value.is_(None), value.value == ""),
    ]
    if request.files:
        conditions.append(Translation.file_name.in_(request.files))
    if request.search:
        anywhere = exists().where(
            TranslationValue.translation_id == Translation.id,
            contains_text(TranslationValue.value, request.search),
        )
        conditions.append(
            or_(contains_text(Translation.key, request.search), anywhere.correlate(Translation))
        )
    if request.changed_since is not None:
        conditions.append(Translation.updated_at >= datetime.combine(request.changed_since, time.min, UTC))
    tags = TagFilter(request.tags, request.exclude_tags)
    if tags:
        conditions.append(tags.condition(Translation.id))
    link = link_of(project)
    if link is not None and link.target == language:
        conditions.append(~has_inherited_value(link))
    rows = db.session.execute(
        select(Translation.id, Translation.file_name, Translation.key, source_value.value)
        .join(
            source_value,
            and_(
                source_value.translation_id == Translation.id,
                source_value.language_code == project.source_language,
            ),
        )
        .outerjoin(value, and_(value.translation_id == Translation.id, value.language_code == language))
        .where(*conditions)
        .order_by(Translation.file_name, Translation.sort_key, Translation.key)
    ).all()
    return [Missing(*row) for row in rows]


@dataclass
class Plan:
    organization_id: str
    source: str
    missing: dict[str, list[Missing]]
    calls: dict[str, machine.ProviderCall]  # per language (its instructions differ)
    # Per language, the memory the caller may read (``policy.memory_reach``), decided when
    # the job runs, with the caller's rights then.
    reaches: dict[str, policy.MemoryReach]
    project_id: str = ""
    # The keys an active screenshot shows, read when the provider sees images (else empty).
    pictured: frozenset[str] = frozenset()


def _plan(actor, project_id: str, request: Request) -> Plan:
    """Everything the job needs from the database, read in one snapshot that then ends."""
    read_snapshot()
    project, permissions = policy.authorize(actor, project_id, policy.PRETRANSLATE)
    _require_languages(permissions, request)
    provider = _validate(project, request)
    plan = Plan(
        organization_id=project.organization_id,
        source=project.source_language,
        missing={language: _missing_in(project, request, language) for language in request.languages},
        calls={},
        reaches={
            language: policy.memory_reach(actor, project.organization_id, language)
            for language in request.languages
        },
        project_id=project.id,
    )
    if provider is not None:
        plan.calls = {language: machine.call_of(provider, language) for language in request.languages}
        if provider.sees_images:
            plan.pictured = frozenset(screenshots.keys_with_pictures(project.id))
    db.session.rollback()  # no transaction stays open while the memory or a provider works
    return plan


def _batch_size(kind: str) -> int:
    from loko.machine.providers import PROVIDERS

    return PROVIDERS[kind].batch_size


def estimate(actor, project_id: str, request: Request) -> dict:
    """What a job would do, without writing or calling a provider: per language the values
    missing, those the memory would fill, and the provider's share in texts, characters and
    requests."""
    plan = _plan(actor, project_id, request)
    languages = []
    for language, items in plan.missing.items():
        texts = list(dict.fromkeys(item.source for item in items))
        known = {}
        if request.min_score is not None and texts:
            known = from_memory(plan, language, texts, request.min_score)
        memory_filled = sum(1 for item in items if item.source in known)
        call = plan.calls.get(language)
        rest = [text for text in texts if text not in known]
        asked = [text for text in rest if sendable(text)] if call is not None else []
        held = set(rest) - set(asked) if call is not None else set()
        sent = set(asked)
        # A key with a picture is asked alone; the other keys' texts in batches.
        shown = [item for item in items if item.source in sent and item.translation_id in plan.pictured]
        batched = list(
            dict.fromkeys(
                item.source
                for item in items
                if item.source in sent and item.translation_id not in plan.pictured
            )
        )
        requests = math.ceil(len(batched) / _batch_size(call.kind)) + len(shown) if call else 0
        languages.append(
            {
                "language": language,
                "missing": len(items),
                "fromMemory": memory_filled,
                "toProvider": sum(1 for item in items if item.source in sent),
                "notSent": sum(1 for item in items if item.source in held),
                "providerTexts": len(batched) + len(shown),
                "providerCharacters": sum(len(text) for text in batched)
                + sum(len(item.source) for item in shown),
                "providerRequests": requests,
                "providerImages": len(shown),
            }
        )
    totals = {
        name: sum(language[name] for language in languages)
        for name in (
            "missing",
            "fromMemory",
            "toProvider",
            "notSent",
            "providerTexts",
            "providerCharacters",
            "providerRequests",
            "providerImages",
        )
    }
    return {**totals, "languages": languages}


# -- Running -------------------------------------------------------------------------------


def pretranslate(
    actor,
    project_id: str,
    request: Request,
    operation_id: str,
    progress: Callable[[int, int], None] = lambda done, total: None,
    cancelled: Callable[[], bool] = lambda: False,
) -> dict:
    """Fill what ``request`` chooses (see the module's docstring); the report as ``Report.answer``."""
    plan = _plan(actor, project_id, request)
    provider_name = next(iter(plan.calls.values())).name if plan.calls else None
    report = Report(
        missing=sum(len(items) for items in plan.missing.values()),
        request=_asked(request, provider_name),
    )
    progress(0, report.missing)
    writer = _Writer(actor, project_id, operation_id, report, request.as_proposals)
    for language, items in plan.missing.items():
        if cancelled():
            break
        rest = items
        if request.min_score is not None and items:
            rest = _fill_from_memory(plan, language, items, request.min_score, writer, progress, cancelled)
        call = plan.calls.get(language)
        if call is None:
            report.unmatched += len(rest)
            progress(report.done, report.missing)
            continue
        sent = []
        for item in rest:
            reason = choices.refusal(item.source)
            if reason is None:
                sent.append(item)
            else:
                report.not_sent += 1
                report.name(item, language, "notSent", f"not sent to machine translation: {reason}")
        rest = sent
        pictures = (lambda chosen: screenshots.model_pictures(project_id, chosen)) if plan.pictured else None
        asked = _translated(call, rest, plan.source, language, cancelled, plan.pictured, pictures)
        for pairs, refusals, failures in asked:
            if cancelled():
                break
            writer.write(language, pairs, "fromProvider")
            for message, items in refusals:
                report.error(message)
                report.refused += len(items)
                for item in items:
                    report.name(item, language, "refused", message)
            for message, items in failures:
                report.error(message)
                report.failed += len(items)
                for item in items:
                    report.name(item, language, "failed", message)
            progress(report.done, report.missing)
    return report.answer()


def sendable(text: str) -> bool:
    """Whether ``text`` may go to a provider (a plural or select message as whole sentences)."""
    return choices.refusal(text) is None


def _fill_from_memory(plan: Plan, language: str, items, min_score: int, writer, progress, cancelled):
    """Write the memory's matches for ``items``; the items it has none for."""
    known = from_memory(plan, language, list(dict.fromkeys(item.source for item in items)), min_score)
    found = [(item, known[item.source]) for item in items if item.source in known]
    for start in range(0, len(found), MEMORY_WRITES):
        if cancelled():
            break
        writer.write(language, found[start : start + MEMORY_WRITES], "fromMemory")
        progress(writer.report.done, writer.report.missing)
    return [item for item in items if item.source not in known]


def same_placeholders(source: str, text: str) -> bool:
    """Whether ``text`` has exactly the placeholders of ``source`` (in any order)."""
    wanted, _ = read_placeholders(source)
    given, _ = read_placeholders(text)
    if wanted is None or given is None:
        return wanted == given
    return sorted(wanted) == sorted(given)


class _Writer:
    """Writes batches of ``(Missing, text)`` in one language and counts what happened."""

    def __init__(self, actor, project_id: str, operation_id: str, report: Report, as_proposals=False):
        self.actor, self.project_id, self.operation_id, self.report = actor, project_id, operation_id, report
        self.as_proposals = as_proposals

    def write(self, language: str, pairs: list[tuple[Missing, str]], tally: str) -> None:
        values = {}
        for item, text in pairs:
            if same_placeholders(item.source, text):
                values[item.translation_id] = text
            else:
                self.report.refused += 1
                self.report.error(
                    f"{item.file_name} {item.key} ({language}): placeholders differ from the source"
                )
                self.report.name(item, language, "refused", "placeholders differ from the source")
        if not values:
            return
        items = {item.translation_id: item for item, _text in pairs}
        try:
            done = self._fill(language, values, tally)
        except Refused as refused:
            messages = {}
            for issue in refused.issues:
                if issue["language"] == language:
                    messages.setdefault((issue["fileName"], issue["key"]), issue["message"])
            kept = {}
            for tid, text in values.items():
                message = messages.get((items[tid].file_name, items[tid].key))
                if message is None:
                    kept[tid] = text
                else:
                    self.report.name(items[tid], language, "refusedByChecks", message)
            self.report.refused_by_checks += len(values) - len(kept)
            for issue in refused.issues:
                self.report.error(f"{issue['fileName']} {issue['key']} ({language}): {issue['message']}")
            if not kept:
                return
            values = kept
            done = self._fill(language, kept, tally)
        filled = len(done["filled"])
        protected = done.get("protected") or []
        if protected:
            # A reviewed value the project protects is never overwritten: proposed instead.
            self._propose(language, {tid: values[tid] for tid in protected}, tally)
        if tally == "fromMemory":
            self.report.from_memory += filled
        else:
            self.report.from_provider += filled
        self.report.skipped += done["skipped"]
        if done["skipped"]:
            for tid in values.keys() - set(done["filled"]):
                self.report.name(items[tid], language, "skipped", SKIPPED_REASON)
        self.report.operation_id = self.report.operation_id or done["operationId"]

    def _propose(self, language: str, values: dict, tally: str) -> int:
        origin = "memory" if tally == "fromMemory" else "machine"
        made = proposals.add_machine_proposals(self.actor, self.project_id, language, values, origin)
        self.report.proposed += made["proposed"]
        return made["proposed"]

    def _fill(self, language: str, values: dict, tally: str) -> dict:
        if self.as_proposals:
            made = self._propose(language, values, tally)
            # Counted as proposed, not filled; a text that is the value already, or
            # proposed already, is skipped.
            self.report.skipped += len(values) - made
            return {"filled": [], "skipped": 0, "protected": [], "operationId": None}
        with agent_writes(PRE_TRANSLATED):  # values no person wrote wait for a review
            return fill_missing(
                self.actor,
                self.project_id,
                language,
                values,
                kind=OPERATION_KIND,
                operation_id=self.operation_id,
                tally=tally,
            )


@dataclass(frozen=True)
class _Ask:
    """One request: its texts, the keys each text fills, and with a key asked alone its
    screenshot (a data URL) and the context that names the key and where it is on it."""

    texts: list[str]
    items: list[list[Missing]]
    context: str | None = None
    image: str | None = None


def _batched(items: list[Missing], size: int) -> Iterator[_Ask]:
    """Each distinct text of ``items`` once, ``size`` texts a request."""
    by_text: dict[str, list[Missing]] = defaultdict(list)
    for item in items:
        by_text[item.source].append(item)
    texts = list(by_text)
    for start in range(0, len(texts), size):
        batch = texts[start : start + size]
        yield _Ask(batch, [by_text[text] for text in batch])


def _pictured(items: list[Missing], pictures: Callable[[list[str]], dict]) -> Iterator[_Ask]:
    """Each of ``items`` alone with its key's picture, read ``PICTURES_READ`` keys at a time
    (one query each, its read ended before the requests go)."""
    for start in range(0, len(items), PICTURES_READ):
        chunk = items[start : start + PICTURES_READ]
        read = pictures([item.translation_id for item in chunk])
        db.session.rollback()
        for item in chunk:
            picture = read.get(item.translation_id)
            if picture is None:  # its file is missing: the text goes without it
                yield _Ask([item.source], [[item]])
                continue
            context = f"Key: {item.key}\nFile: {item.file_name}\n{picture.note}"
            yield _Ask([item.source], [[item]], context, picture.data_url)


def _translated(
    call: machine.ProviderCall,
    items: list[Missing],
    source: str,
    target: str,
    cancelled,
    pictured: frozenset[str] = frozenset(),
    pictures: Callable[[list[str]], dict] | None = None,
) -> Iterator[tuple[list, list, list]]:
    """The provider's translations of ``items``, batch by batch as they come back:
    ``(pairs translated, [(refusal, items)], [(error, items)])``; a refusal is a result the
    masking refused (a placeholder lost, repeated or invented), an error a failed request.
    Each distinct text is asked once, in requests of the provider's batch size, but a key in
    ``pictured`` when ``pictures`` reads them, asked alone with its picture;
    ``CONCURRENCY`` requests at a time; a cancelled job asks no more."""
    shown = [item for item in items if item.translation_id in pictured] if pictures else []
    plain = [item for item in items if item.translation_id not in pictured] if pictures else items
    batches = chain(_batched(plain, _batch_size(call.kind)), _pictured(shown, pictures) if shown else ())
    allow_private = machine.outbound_allowed(current_app.config)
    workers = CONCURRENCY.get(call.kind, DEFAULT_CONCURRENCY)
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="loko-pretranslate") as pool:
        pending = set()

        def ask_next() -> None:
            batch = next(batches, None)
            if batch is not None:
                pending.add(pool.submit(_ask, call, batch, source, target, allow_private))

        for _ in range(workers):
            ask_next()
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                pending.discard(future)
                batch, answers, error = future.result()
                pairs, refusals, failures = [], [], []
                if error is not None:
                    failures.append((error, [item for keys in batch.items for item in keys]))
                else:
                    for keys, answer in zip(batch.items, answers, strict=True):
                        if isinstance(answer, str):
                            pairs += [(item, answer) for item in keys]
                        else:
                            refusals.append((f"{call.name} refused: {answer.message}", keys))
                yield pairs, refusals, failures
                if not cancelled():
                    ask_next()


def _ask(call: machine.ProviderCall, batch: _Ask, source: str, target: str, allow_private: bool):
    """One request to the provider, on a worker thread (no application context, no
    database): ``(batch, [translation or MaskingError], None)`` or ``(batch, None, error)``."""
    from loko.machine.providers.base import ProviderError

    try:
        answers = machine.translate_each(
            call, batch.texts, source, target, allow_private, context=batch.context, image=batch.image
        )
        return batch, answers, None
    except ProviderError as error:
        return batch, None, f"{call.name}: {error.message}"
