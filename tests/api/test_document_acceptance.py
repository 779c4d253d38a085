"""A client generated from the OpenAPI document sends nothing the API refuses: every request
the document allows is accepted (schemathesis' ``positive_data_acceptance``: no 400, 405,
413, 415 or 422 for a request generated from the schemas) and none gets a 5xx.

The whole document runs in-process against the Flask app, as an organization owner (session
cookie) and as a project API key, both made through the app (tests/api/conftest.py), with
a fixed seed and at most ``MAX_EXAMPLES`` requests per operation and caller.

What the run leaves out, and why:

- The link rules of ``PUT /api/projects/{project_id}`` that depend on stored data (the
  linked project exists in the organization and is not this project, the languages are
  the projects' own, no cycle), and its source language being one of the project's
  languages, answer 400 to a request no schema can rule out; the
  operation's description states them. Any other 400 there still fails.
- ``POST /api/mcp`` is checked for server errors only: whether a JSON-RPC message is
  accepted depends on the messages before it (``initialize`` opens the session whose
  ``Mcp-Session-Id`` later messages must send) and on headers that must repeat the body,
  which OpenAPI cannot state; tests/mcp covers the protocol.
- ``POST /api/projects/{project_id}/import`` is checked for server errors only: its body is
  a translation file (or a ZIP of them) that must parse in its format, which no schema
  describes; tests/api/test_import.py covers it. So is the glossary's import
  (``POST /api/organizations/{organization_id}/glossary/import``): its ``content`` is a CSV
  or TBX file's text that must parse; tests/glossary covers it.
- ``POST /api/projects/{project_id}/repohost`` is not sent: it checks the connection to
  the repository host before saving (github.com when no ``api_url`` is given), and tests
  send nothing beyond the loopback; tests/repohost covers it against real git and
  stand-ins of each host's API.
- Generated requests that break a rule the document states only in words are dropped
  before they are sent: a key repeated in one bulk-upsert request (JSON Schema cannot say
  that items differ in one property: ``uniqueItems`` compares whole items), and an export
  in a file format without zip that does not name exactly one file (and, unless the format
  holds every language in one file, one language): OpenAPI has no rules across query
  parameters. Both operations' descriptions state these rules.
- An undo (``POST /api/projects/{project_id}/history/revert``) names one operation or a
  range of changes (by actor, time, file or language), never both nor neither, and a range
  ends after it starts: rules across properties, stated in the operation's description.
- A language code of the document's shape that the IANA language subtag registry does not
  know (``zz``), or two spellings of one language as keys of one map (``en`` and ``EN``),
  answer 400 with a message naming the code: the registry is no pattern, and JSON Schema
  cannot say that keys differ once their case is folded. ``LanguageCode`` states both rules.
- The languages a member or an API key is limited to must be languages of the project
  (stored data), a key's expiry must be in the future (the time of the request), and only a
  write key is limited to languages: those 400s are stated in the fields' descriptions.
- Deletions of the caller's own world are turned into deletions of victims made for them
  (a member, a project, a session for sign-out; see ``Contract.call_options``), so that
  the run keeps its access. The API has no endpoint that deletes a user or an organization.
"""

import re

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import positive_data_acceptance

from loko.formats.registry import format_module

MAX_EXAMPLES = 25
CHECKS = [not_a_server_error, positive_data_acceptance]
SERVER_ERRORS_ONLY = {
    "POST /api/mcp",
    "POST /api/projects/{project_id}/import",
    "POST /api/organizations/{organization_id}/glossary/import",
}
# Configuring a repository connects to its host (github.com by default): tests send nothing
# beyond the loopback, so it is not generated here; tests/repohost covers it.
NOT_SENT = {"POST /api/projects/{project_id}/repohost"}
UPDATE_PROJECT = "PUT /api/projects/{project_id}"
EXPORT = "GET /api/projects/{project_id}/translations"
REVERT = "POST /api/projects/{project_id}/history/revert"
# The stored-data link rules (loko.projects.service), by the start of their messages.
STORED_DATA_LINK_RULES = (
    "linked_project_id: a project cannot be linked to itself.",
    "linked_project_id: no such project in this project's organization.",
    "linked_language_code: ",
    "linked_language_target_code: ",
    "linked_project_id: this link would create a cycle of linked projects.",
    # The source language must be one of the project's languages (stored data too).
    "source_language: ",
)


SET_MEMBER = "PUT /api/projects/{project_id}/members/{user_id}"
CREATE_KEY = "POST /api/projects/{project_id}/keys"
MARK_REVIEWED = "POST /api/projects/{project_id}/translations/review"
# The limits and expiry of members and keys stated in words only (loko.fields.LanguageLimit,
# loko.apikeys.schemas), by their messages.
LIMIT_RULES = re.compile(
    r"languages\.\d+: '[^']*' is not a language of this project\.$"
    r"|expiresAt: must be in the future\.$"
    r"|languages: only a write key can be limited to languages"
)


def refused_for_stored_data(case, response) -> bool:
    """A 400 that the document can only describe: a link rule over stored data, or a rule of
    a member's or a key's limits, or the languages a review names."""
    if response.status_code != 400:
        return False
    if case.operation.label in (SET_MEMBER, CREATE_KEY, MARK_REVIEWED):
        return LIMIT_RULES.match(response.json()["error"]) is not None
    if case.operation.label != UPDATE_PROJECT:
        return False
    return response.json()["error"].startswith(STORED_DATA_LINK_RULES)


# The language code rules stated in words only (loko.languages.codes, loko.fields.LanguageMap).
LANGUAGE_CODE_RULES = ("is not a known language code", "are both the language")


def refused_for_a_language_code(response) -> bool:
    return response.status_code == 400 and any(
        rule in response.json()["error"] for rule in LANGUAGE_CODE_RULES
    )


def repeats_a_key(body) -> bool:
    items = body.get("translations") if isinstance(body, dict) else None
    if not isinstance(items, list):
        return False
    keys = [item.get("key") for item in items if isinstance(item, dict)]
    return len(keys) != len(set(keys))


REVERT_RANGE = ("actorType", "actorId", "since", "until", "fileName", "language")


def chooses_no_single_undo(body) -> bool:
    """An undo names an operation or a range of changes, not both nor neither, and a range
    ends after it starts (POST history/revert states it)."""
    if not isinstance(body, dict):
        return False
    ranged = any(name in body for name in REVERT_RANGE)
    if ("operationId" in body) == ranged:
        return True
    since, until = body.get("since"), body.get("until")
    return isinstance(since, str) and isinstance(until, str) and since >= until


def exports_several_files_unzipped(query) -> bool:
    """A file format without zip answers one file: one fileName and, unless the format
    holds every language, one language."""
    if (
        not isinstance(query, dict)
        or query.get("format", "json") == "json"
        or query.get("zip") in (True, "true")
    ):
        return False
    file_names, languages = (_distinct(query.get(name)) for name in ("fileName", "language"))
    multilingual = getattr(format_module(query["format"]), "MULTILINGUAL", False)
    return file_names != 1 or (not multilingual and languages != 1)


def _distinct(value) -> int:
    items = value if isinstance(value, list) else [] if value is None else [value]
    return len({part for item in items for part in str(item).split(",") if part})


@pytest.mark.slow
def test_api_accepts_every_request_its_document_allows(app, contract, contract_schema):
    @contract_schema.hook("filter_body")
    def kept_body(context, body):
        if context.operation.label == REVERT:
            return not chooses_no_single_undo(body)
        return not repeats_a_key(body)

    @contract_schema.hook("filter_query")
    def stated_in_words_only(context, query):
        return context.operation.label != EXPORT or not exports_several_files_unzipped(query)

    failures = {}
    for result in contract_schema.get_all_operations():
        operation = result.ok()
        if not operation.definition.raw["security"] and contract.caller != "org_owner":
            continue  # takes no credentials: the owner's pass covers it
        if operation.label in NOT_SENT:
            continue
        try:
            _exercise(app, contract, operation)
        except FailureGroup as error:
            failures[operation.label] = str(error)
    assert not failures, "\n\n".join(f"{label}:\n{report}" for label, report in failures.items())


def _exercise(app, contract, operation) -> None:
    checks = [not_a_server_error] if operation.label in SERVER_ERRORS_ONLY else CHECKS

    @given(case=operation.as_strategy(generation_mode=GenerationMode.POSITIVE))
    @settings(
        max_examples=MAX_EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def run(case):
        response = case.call(**contract.call_options(app, case))
        if refused_for_stored_data(case, response) or refused_for_a_language_code(response):
            return
        case.validate_response(response, checks=checks)

    run()
