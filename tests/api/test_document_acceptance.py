"""A client generated from the OpenAPI document sends nothing the API refuses: every request
the document allows is accepted (schemathesis' ``positive_data_acceptance``: no 400, 405,
413, 415 or 422 for a request generated from the schemas) and none gets a 5xx.

The whole document runs in-process against the Flask app, as an organization owner (session
cookie) and as a project API key, both made through the app (tests/api/conftest.py): a fixed
seed's ``MAX_EXAMPLES`` generated requests per operation and caller, after, in the owner's
pass on SQLite (validation depends neither on the caller nor on the database), schemathesis'
coverage phase: valid requests at each property's boundaries (shortest and longest strings,
smallest and largest numbers, fullest lists), every enum value, each optional part left out.
Two operations skip it (``COVERAGE_TOO_SLOW``).

What the run leaves out, and why (docs/api.md, "Rules a schema cannot state", lists the same):

- A 400 whose message is one of ``STATED_IN_WORDS`` for its operation: rules over stored data
  (a project's link and source language; the languages a member, a key, a review or a
  pre-translation names are the project's, a pre-translation's not its source language, its
  files the project's, its provider an enabled one of the organization's), the time of the
  request (a key's expiry is in the future), and comparisons JSON Schema cannot write (an
  undo's ``until`` is later than its ``since``; a glossary term has one allowed translation
  per language). Each operation's description states them; any other 400 still fails.
- A 431 with its ``{"error"}`` message, on any operation: the request line and headers are
  at most 256 KiB (``loko.http.MAX_REQUEST_HEAD``, waitress's limit), and a query string's
  length is the sum of its parameters', which no schema bounds.
- ``POST /api/mcp`` is checked for server errors only: whether a JSON-RPC message is
  accepted depends on the messages before it (``initialize`` opens the session whose
  ``Mcp-Session-Id`` later messages must send) and on headers that must repeat the body,
  which OpenAPI cannot state; tests/mcp covers the protocol.
- ``POST /api/projects/{project_id}/import`` is checked for server errors only: its body is
  a translation file (or a ZIP of them) that must parse in its format, which no schema
  describes; tests/api/test_import.py covers it. So is the glossary's import
  (``POST /api/organizations/{organization_id}/glossary/import``): its ``content`` is a CSV
  or TBX file's text that must parse; tests/glossary covers it. So is a screenshots upload
  (``POST /api/projects/{project_id}/screenshots``): its files must decode as the images
  their first bytes say (PNG, JPEG or WebP), and a session sends none (the cross-site write
  guard takes JSON bodies only); tests/screenshots covers it. So is a screenshots archive
  (``POST /api/projects/{project_id}/screenshots/archive``): a ZIP of such images and their
  regions; tests/screenshots/test_archive.py covers it.
- ``POST /api/projects/{project_id}/repohost`` is not sent: it checks the connection to
  the repository host before saving (github.com when no ``api_url`` is given), and tests
  send nothing beyond the loopback; tests/repohost covers it against real git and
  stand-ins of each host's API.
- Generated requests that break a rule the document states only in words are dropped before
  they are sent: a key repeated in one bulk-upsert request (JSON Schema cannot say that items
  differ in one property: ``uniqueItems`` compares whole items), and an export in a file
  format without zip that does not name exactly one file (and, unless the format holds every
  language in one file, one language): OpenAPI has no rules across query parameters. Both
  operations' descriptions state these rules.
- Language codes are not left out: the document states the IANA registry's codes in their
  canonical form (the ``LanguageCode`` component), so two keys of one map are never one
  language. A code stored before codes were checked may still be renamed or deleted by its
  shape alone; the document is stricter there.
- Deletions of the caller's own world are turned into deletions of victims made for them
  (a member, a project, a session for sign-out; see ``Contract.call_options``), so that
  the run keeps its access. The API has no endpoint that deletes a user or an organization.
"""

import re
import zlib

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.generation.drivers import CoverageGenerator
from schemathesis.generation.feedback import NO_FEEDBACK
from schemathesis.generation.overrides import Override
from schemathesis.specs.openapi.checks import positive_data_acceptance

from loko.formats.registry import format_module
from loko.http import head_too_large_message

MAX_EXAMPLES = 25
CHECKS = [not_a_server_error, positive_data_acceptance]
SERVER_ERRORS_ONLY = {
    "POST /api/mcp",
    "POST /api/projects/{project_id}/import",
    "POST /api/organizations/{organization_id}/glossary/import",
    "POST /api/projects/{project_id}/screenshots",
    "POST /api/projects/{project_id}/screenshots/archive",
}
# Their longest strings under a pattern (a comment of 5,000 characters, 200 texts of 8,192)
# take schemathesis' coverage phase a minute or more each to build; the generated requests
# still run, and tests/comments and tests/glossary send those lengths.
COVERAGE_TOO_SLOW = {
    "POST /api/projects/{project_id}/translations/{translationId}/comments",
    "GET /api/projects/{project_id}/glossary/matches",
}
# Configuring a repository connects to its host (github.com by default): tests send nothing
# beyond the loopback, so it is not generated here; tests/repohost covers it.
NOT_SENT = {"POST /api/projects/{project_id}/repohost"}
# The operations are shared among this many tests of each caller and database.
SHARDS = 4
EXPORT = "GET /api/projects/{project_id}/translations"
NOT_OF_THE_PROJECT = r"languages\.\d+: '[^']*' is not a language of this project\.$"
GLOSSARY_TRANSLATIONS = (
    r"translations\.\d+: \S+ has the translation .* already; a term has one allowed translation "
    r"per language"
)
# A past state asked for: an instant or an operation of this project, not both a moment and
# a release (stored data and two parameters compared).
AS_OF = (
    r"asOf: (ask for a moment or for a release, not both|neither an ISO-8601 instant nor an "
    r"operation of this project|[^\n]*)\.?$"
)
# A tag both added and removed (two lists compared).
BOTH_ADDED_AND_REMOVED = r"remove: '[^']*' is both added and removed; name it once\.$"
# The 400s that no schema can rule out, by operation and message: the rules the operations'
# descriptions and the README's API notes state in words (rules over stored data, the time of
# the request, or several items or properties compared).
STATED_IN_WORDS = {
    "PUT /api/projects/{project_id}": re.compile(
        r"linked_project_id: a project cannot be linked to itself\.$"
        r"|linked_project_id: no such project in this project's organization\.$"
        r"|linked_language_code: '[^']*' is not a language of the linked project\.$"
        r"|linked_language_target_code: '[^']*' is not a language of this project\.$"
        r"|linked_project_id: this link would create a cycle of linked projects\.$"
        r"|source_language: ('[^']*' is not a language of this project|choose one of the "
        r"project's languages)\.$"
    ),
    "PUT /api/projects/{project_id}/members/{user_id}": re.compile(NOT_OF_THE_PROJECT),
    "POST /api/projects/{project_id}/keys": re.compile(
        rf"{NOT_OF_THE_PROJECT}|expiresAt: must be in the future\.$"
    ),
    "POST /api/projects/{project_id}/translations/review": re.compile(NOT_OF_THE_PROJECT),
    "POST /api/projects/{project_id}/pretranslate": re.compile(
        r"languages\.\d+: the project has no language '[^']*'\.$"
        r"|languages\.\d+: \S+ is the project's source language\.$"
        r"|files\.\d+: the project has no file '[^']*'\.$"
        r"|sources\.provider: the organization has no such provider\.$"
        r"|sources\.provider: the provider .* is disabled\.$"
    ),
    "POST /api/projects/{project_id}/history/revert": re.compile(r"until: Must be later than since\.$"),
    "POST /api/projects/{project_id}/replace": re.compile(
        rf"{NOT_OF_THE_PROJECT}"
        r"|(languages|items)\.\d+(\.language)?: \S+ is the project's source language; send "
        r"includeSource: true to replace in it\.$"
        r"|find: not a valid regular expression: "
        r"|find: the pattern's counted repetitions \(\{n\}\) expand to more than "
        r"|find: the regular expression ran out of time "
        r"|replace: not a valid replacement for this pattern: "
        r"|cursor: not a nextCursor of this preview; "
        r"|items: items\.\d+: this value is listed twice\.$"
    ),
    "PATCH /api/projects/{project_id}/tags/keys/{translation_id}": re.compile(BOTH_ADDED_AND_REMOVED),
    "POST /api/projects/{project_id}/tags/bulk": re.compile(
        rf"{BOTH_ADDED_AND_REMOVED}|add: at most \d+ tags to add and remove in one request\.$"
    ),
    "GET /api/projects/{project_id}/translations": re.compile(AS_OF),
    "POST /api/projects/{project_id}/releases": re.compile(
        rf"{AS_OF}|freezeUntil: the freeze must end after it begins\.$"
    ),
    "GET /api/projects/{project_id}/proposals": re.compile(
        r"cursor: not a nextCursor of this listing \(with this sort\)\.$"
    ),
    "PATCH /api/projects/{project_id}/proposal-settings": re.compile(
        r"languages\.\S+\.autoAcceptVotes: the votes mode needs a number of votes\.$"
    ),
    "POST /api/projects/{project_id}/proposals/bulk-accept": re.compile(
        r"items: Give items or proposalIds\.$"
    ),
    "POST /api/projects/{project_id}/tasks": re.compile(
        r"keys: Give either keys or filter\.$|filter\.issues: any or the code of a check\.$"
        r"|keys: no active key matches; a task needs at least one key\.$"
        r"|assignees\.\d+: '[^']*' is not a member of this project\.$"
        r"|assigneeEmails\.\d+: nobody of this project has the e-mail '[^']*'\.$"
        r"|language: the project has no language '[^']*'\.$"
    ),
    "PUT /api/projects/{project_id}/notification-settings": re.compile(
        r"rules\.\S+: e-mail is not set up on this server \(no SMTP host\)\.$"
    ),
    "POST /api/organizations/{organization_id}/invitations": re.compile(
        r"email: e-mail is not set up on this server \(no SMTP host\); hand the link on\.$"
    ),
    "POST /api/organizations/{organization_id}/glossary/terms": re.compile(GLOSSARY_TRANSLATIONS),
    "PATCH /api/organizations/{organization_id}/glossary/terms/{term_id}": re.compile(GLOSSARY_TRANSLATIONS),
}


def refused_for_a_rule_in_words(case, response) -> bool:
    """A refusal that the document can only describe: one of ``STATED_IN_WORDS``, or a request
    line and headers over the server's limit (431; a query string's length is the sum of its
    parameters', which no schema bounds)."""
    if response.status_code == 431:
        return response.json()["error"] == head_too_large_message()
    rule = STATED_IN_WORDS.get(case.operation.label)
    return (
        response.status_code == 400 and rule is not None and rule.match(response.json()["error"]) is not None
    )


def repeats_a_key(body) -> bool:
    items = body.get("translations") if isinstance(body, dict) else None
    if not isinstance(items, list):
        return False
    keys = [item.get("key") for item in items if isinstance(item, dict)]
    return len(keys) != len(set(keys))


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


def sent(label: str, body, query) -> bool:
    """False for a request that breaks a rule stated in words which no message tells apart:
    it is dropped before it is sent."""
    return not repeats_a_key(body) and (label != EXPORT or not exports_several_files_unzipped(query))


def operations_sent(contract_schema, contract, shard: int):
    """The operations a generated run sends as ``contract``'s caller, those of one shard: each
    operation is in one of ``SHARDS`` by its label, so the run is several tests of about the
    same length that the test workers share."""
    for result in contract_schema.get_all_operations():
        operation = result.ok()
        if not operation.definition.raw["security"] and contract.caller != "org_owner":
            continue  # takes no credentials: the owner's pass covers it
        if operation.label in NOT_SENT or zlib.crc32(operation.label.encode()) % SHARDS != shard:
            continue
        yield operation


@pytest.mark.slow
@pytest.mark.parametrize("shard", range(SHARDS))
def test_api_accepts_every_request_its_document_allows(app, contract, contract_schema, shard):
    @contract_schema.hook("filter_body")
    def kept_body(context, body):
        return sent(context.operation.label, body, None)

    @contract_schema.hook("filter_query")
    def kept_query(context, query):
        return sent(context.operation.label, None, query)

    failures = {}
    for operation in operations_sent(contract_schema, contract, shard):
        try:
            _exercise(app, contract, operation)
        except FailureGroup as error:
            failures[operation.label] = str(error)
    assert not failures, "\n\n".join(f"{label}:\n{report}" for label, report in failures.items())


def _exercise(app, contract, operation) -> None:
    checks = [not_a_server_error] if operation.label in SERVER_ERRORS_ONLY else CHECKS

    def check(case):
        response = case.call(**contract.call_options(app, case))
        if not refused_for_a_rule_in_words(case, response):
            case.validate_response(response, checks=checks)

    if _runs_coverage(app, contract) and operation.label not in COVERAGE_TOO_SLOW:
        for case in _coverage_cases(operation, contract):
            check(case)

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
        check(case)

    run()


def _runs_coverage(app, contract) -> bool:
    """The coverage phase runs once: validation depends neither on the caller nor on the
    database, and its boundary values take long to build."""
    return contract.caller == "org_owner" and app.config["LOKO_DATABASE_URL"].startswith("sqlite")


def _coverage_cases(operation, contract):
    """Schemathesis' coverage phase, valid requests only: each property's boundaries (shortest
    and longest strings, smallest and largest numbers, fullest lists), each enum value, each
    optional part left out. Path parameters are the world's own, so that the requests reach
    their validation rather than a 404."""
    generator = CoverageGenerator(
        operation=operation,
        generation_modes=[GenerationMode.POSITIVE],
        generation_config=operation.schema.config.generation_for(operation=operation, phase="coverage"),
        auth_storage=None,
        override=Override(),
        feedback=NO_FEEDBACK,
    )
    for case in generator:
        for name in case.path_parameters or {}:
            if name in contract.real:
                case.path_parameters[name] = contract.real[name][0]
        if sent(operation.label, case.body, case.query):
            yield case
