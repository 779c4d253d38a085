"""/api/organizations/{id}/machine-providers and /api/projects/{id}/suggestions."""

from flask import Blueprint

from loko.auth.identity import current_actor
from loko.auth.schemas import SuccessOut
from loko.http import load_body, load_query
from loko.jobs.schemas import JobEnvelope
from loko.machine import pretranslate, service
from loko.machine.schemas import (
    MachineProviderEnvelope,
    MachineProviderIn,
    MachineProviderList,
    MachineProviderPatch,
    PretranslateEstimate,
    PretranslateIn,
    ProviderTestOut,
    SuggestionsOut,
    SuggestionsQuery,
)
from loko.openapi import documented

machine_api = Blueprint("machine_api", __name__)
BASE = "/organizations/<uuid:organization_id>/machine-providers"
ONE = BASE + "/<uuid:provider_id>"
TAGS = ("machine translation",)
SESSION = ("session",)


@machine_api.get(BASE)
@documented(
    "The organization's machine translation providers (owner or admin)",
    tags=TAGS,
    auth=SESSION,
    responses={200: MachineProviderList},
)
def list_providers(organization_id):
    providers = service.list_providers(current_actor(), str(organization_id))
    return MachineProviderList().dump({"providers": providers})


@machine_api.post(BASE)
@documented(
    "Add a machine translation provider (owner or admin)",
    tags=TAGS,
    auth=SESSION,
    body=MachineProviderIn,
    responses={201: MachineProviderEnvelope},
    description="The API key is stored encrypted and never answered: `hasKey` and `keyLast4` say "
    "which one is set.",
)
def create_provider(organization_id):
    provider = service.create_provider(current_actor(), str(organization_id), load_body(MachineProviderIn))
    return MachineProviderEnvelope().dump({"provider": provider}), 201


@machine_api.patch(ONE)
@documented(
    "Change a machine translation provider (owner or admin)",
    tags=TAGS,
    auth=SESSION,
    body=MachineProviderPatch,
    responses={200: MachineProviderEnvelope},
)
def update_provider(organization_id, provider_id):
    data = load_body(MachineProviderPatch)
    provider = service.update_provider(current_actor(), str(organization_id), str(provider_id), data)
    return MachineProviderEnvelope().dump({"provider": provider})


@machine_api.delete(ONE)
@documented(
    "Remove a machine translation provider (owner or admin)",
    tags=TAGS,
    auth=SESSION,
    responses={200: SuccessOut},
)
def delete_provider(organization_id, provider_id):
    service.delete_provider(current_actor(), str(organization_id), str(provider_id))
    return SuccessOut().dump({"success": True})


@machine_api.post(ONE + "/test")
@documented(
    "Check a provider's setup by translating `Hello {name}` into German",
    tags=TAGS,
    auth=SESSION,
    responses={200: ProviderTestOut},
    errors=(401, 403, 404, 409),
    description="Answers 200 whether or not the provider worked: `ok`, the translation, or the "
    "provider's failure in `error` (a refused address, a rejected key, a lost placeholder).",
)
def check_provider(organization_id, provider_id):
    return ProviderTestOut().dump(
        service.check_provider(current_actor(), str(organization_id), str(provider_id))
    )


@machine_api.get("/projects/<uuid:project_id>/suggestions")
@documented(
    "Machine translation suggestions for one key",
    tags=TAGS,
    query=SuggestionsQuery,
    responses={200: SuggestionsOut},
    errors=(400, 401, 403, 404, 409),
    description="The translation memory's matches for the key's source text come first (only "
    "what the caller may read, as `GET /api/projects/{id}/memory` answers it), then the "
    "glossary's terms; then asks each enabled provider of the project's organization to "
    "translate the key's "
    "source-language text into `language` (whoever may edit translations, a write key too). "
    "Placeholders are masked before sending and verified after: a result that lost, repeated or "
    "invented one is refused and listed in `errors`, never suggested. Answers 409 when the "
    "stored data leave nothing to translate: the project has no source language, `language` is "
    "the source language, or the key has no source text.",
)
def suggestions(project_id):
    query = load_query(SuggestionsQuery)
    answer = service.suggest(
        current_actor(), str(project_id), query["fileName"], query["key"], query["language"]
    )
    return SuggestionsOut().dump(answer)


@machine_api.post("/projects/<uuid:project_id>/pretranslate")
@documented(
    "Pre-translate: fill the missing values of some languages from the memory and/or a provider",
    tags=TAGS,
    body=PretranslateIn,
    responses={202: JobEnvelope, 200: PretranslateEstimate},
    errors=(400, 401, 403, 404, 409),
    description="Queues a background job (202, poll it with `GET /api/projects/{id}/jobs/{job}`; "
    "cancel it there) that fills the values of `languages` that are missing (no value or an "
    "empty one) for keys with a source text, in `files` and the keys `filter` finds: from the "
    "memory's best match scoring at least `minScore` (among what the caller may read, as "
    "`GET /api/projects/{id}/memory` answers it, decided again when the job runs), then with "
    "the provider for the rest. "
    "A value written meanwhile is never overwritten; a result whose placeholders differ from "
    "the source's is never written; the values written are `needs-review`, and the whole job "
    "is one operation, undone as one. ICU plural and select messages are never sent to the "
    "provider (their branches follow the target language's plural rules). The job's `result` "
    "is the report: `fromMemory`, `fromProvider`, `refused`, `refusedByChecks`, `failed`, "
    "`skipped`, `unmatched`, `notSent` (the ICU messages), `operationId`, `errors`, `request` "
    "(`languages`, `files`, `provider`, `memory`: what was asked), and `notWritten`: each "
    "value refused, refused by the checks, failed, skipped or not sent, as `{translationId, "
    "fileName, key, language, outcome, reason}` (`outcome` names its count), the first 1,000 "
    "only, `notWrittenTruncated` saying whether there were more. With `dryRun`, answers 200 "
    "with what it would fill (`notSent` apart) and the "
    "requests it would cost, calling no provider. Whoever may edit translations (a write key "
    "too); 409 when the project has no source language. Rules over stored data, which the schema "
    "cannot state, answer 400 naming the item: each of `languages` must be a language of the "
    "project other than its source language, each of `files` a file of the project, and "
    "`sources.provider` an enabled provider of the project's organization.",
)
def pretranslate_project(project_id):
    answer = pretranslate.start(current_actor(), str(project_id), load_body(PretranslateIn))
    if answer.pop("dryRun"):
        return PretranslateEstimate().dump({"dryRun": True, **answer})
    return JobEnvelope().dump(answer), 202
