"""The OpenAPI document is a contract: generated requests, valid and invalid, sent by an
organization owner and by a project API key, must get only documented status codes and
content types, bodies that match the documented schemas, and never a 5xx.

The run is bounded and derandomized: a few examples per operation and generation mode,
the same ones on every run. Path, query and body values are often swapped for real ones
(the world's projects, organization, users, API keys, languages, files, translation keys
and ids) so that the deep paths answer 200 and 201, not only 400 and 404.
"""

from dataclasses import dataclass
from types import SimpleNamespace

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.core.failures import FailureGroup

from loko.auth import service as auth_service
from loko.auth.actors import UserActor
from loko.translations import service as translations
from tests.factories import (
    PASSWORD,
    add_language,
    add_org_member,
    build_world,
    cheap_password_hasher,
    make_project,
    make_session,
    make_user,
)

MAX_EXAMPLES = 6
# A sign-in checks a password against a hash made at full cost (about 0.3 s each).
FEWER_EXAMPLES = {"POST /api/auth/login": 3}
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
# Every request carries the caller's real credentials; none are generated.
CONFIG = schemathesis.Config.from_dict({"generation": {"with-security-parameters": False}})
LANGUAGES = ("en", "de", "fr")
LANGUAGE_FIELDS = (
    "code",
    "currentCode",
    "languageCode",
    "language",
    "linked_language_code",
    "linked_language_target_code",
)
FILES = ("common", "auth/login")
KEYS = ("greeting", "farewell")
# Objects whose keys are language codes.
LANGUAGE_MAPS = ("values", "updates")
MCP_INITIALIZE = {
    "protocolVersion": "2025-06-18",
    "capabilities": {},
    "clientInfo": {"name": "contract-test", "version": "1.0"},
}
REMOVE_MEMBER = "DELETE /api/organizations/{organization_id}/members/{user_id}"
DELETE_PROJECT = "DELETE /api/projects/{project_id}"


@dataclass
class Contract:
    """The caller and the world it acts on, as plain values."""

    caller: str
    modes: tuple
    credentials: dict
    user_id: str
    organization_id: str
    own_projects: tuple
    real: dict


@pytest.fixture(params=["org_owner", "write_key"])
def contract(request, app, monkeypatch):
    monkeypatch.setattr(auth_service, "_hasher", cheap_password_hasher())
    with app.app_context():
        world = build_world()
        users = {name: user.id for name, user in world.users.items()}
        emails = [user.email for user in world.users.values()]
        owner = world.users["org_owner"]
        organization = SimpleNamespace(id=world.organization_id)
        project = SimpleNamespace(id=world.project_id)
        sibling = make_project(organization, name="Sibling")
        for code in LANGUAGES[:2]:
            add_language(project, code)
            add_language(sibling, code)
        translation_ids = _translations(UserActor(owner.id, owner.email, owner.name), world.project_id)
        sibling_id = sibling.id
    own_user = users.get(request.param)
    return Contract(
        caller=request.param,
        # Invalid input is refused before anyone's permissions are looked at, so the
        # owner's pass covers it; the key's pass sends valid requests only.
        modes=tuple(GenerationMode) if request.param == "org_owner" else (GenerationMode.POSITIVE,),
        credentials=world.credentials[request.param],
        user_id=own_user or "",
        organization_id=world.organization_id,
        own_projects=(world.project_id, sibling_id),
        real={
            "project_id": [world.project_id, sibling_id, world.other_project_id],
            "linked_project_id": [sibling_id, world.project_id, world.other_project_id],
            "organization_id": [world.organization_id],
            # Never the caller itself: the run needs its access.
            "user_id": [uid for uid in users.values() if uid != own_user],
            "key_id": list(world.key_ids.values()),
            "email": [*emails, emails[0].upper()],
            "password": [PASSWORD],
            **{name: list(LANGUAGES) for name in LANGUAGE_FIELDS},
            "fileName": list(FILES),
            "newFileName": list(FILES),
            "key": list(KEYS),
            "q": ["greet"],
            "id": translation_ids,
            "translationId": translation_ids,
            "jsonrpc": ["2.0"],
            "method": ["initialize", "tools/list"],
            "params": [MCP_INITIALIZE],
        },
    )


def _translations(actor, project_id) -> list[str]:
    """An active and a trashed translation; returns their ids."""
    active = translations.create_translation(
        actor, project_id, KEYS[0], FILES[0], {"en": "Hello", "de": "Hallo"}
    )
    trashed = translations.create_translation(actor, project_id, KEYS[1], FILES[0], {"en": "Bye"})
    translations.delete_translation(actor, project_id, trashed["id"], permanent=False)
    return [active["id"], trashed["id"]]


@pytest.fixture
def contract_schema(app, contract):
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app, config=CONFIG)

    def realistic(values):
        # Each generated value stays one candidate among the real values of its name.
        if not isinstance(values, dict):
            return st.just(values)
        return st.fixed_dictionaries(
            {name: _candidates(contract.real, name, value) for name, value in values.items()}
        )

    for container in ("path_parameters", "query", "body"):
        schema.hook(f"flatmap_{container}")(lambda _context, values: realistic(values))
    return schema


def _candidates(real: dict, name: str, value):
    if name in LANGUAGE_MAPS and isinstance(value, dict):
        relabelled = dict(zip(LANGUAGES, value.values(), strict=False))
        return st.sampled_from([value, relabelled])
    return st.sampled_from([value, *real.get(name, [])])


@pytest.mark.slow
def test_api_honours_its_document(app, contract, contract_schema):
    failures = {}
    for result in contract_schema.get_all_operations():
        operation = result.ok()
        if not operation.definition.raw["security"] and contract.caller != "org_owner":
            continue  # takes no credentials: the owner's pass covers it
        for mode in contract.modes:
            try:
                _exercise(app, contract, operation, mode)
            except FailureGroup as error:
                failures[f"{operation.label} [{mode.value}]"] = str(error)
            except Unsatisfiable:
                # Nothing to make invalid: the operation takes no parameters and no body.
                assert mode is GenerationMode.NEGATIVE, operation.label
    assert not failures, "\n\n".join(f"{label}:\n{report}" for label, report in failures.items())


def _exercise(app, contract: Contract, operation, mode: GenerationMode) -> None:
    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=FEWER_EXAMPLES.get(operation.label, MAX_EXAMPLES),
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def run(case):
        case.call_and_validate(checks=CHECKS, **_prepare(app, contract, case))

    run()


def _prepare(app, contract: Contract, case) -> dict:
    """The caller's key or cookie. A sign-out, a member removal or a deletion of one of the
    organization's projects acts on a victim made for it, so that the session, the members
    and the projects stay usable for the whole run."""
    if "bearer" in contract.credentials:
        return {"headers": {"Authorization": f"Bearer {contract.credentials['bearer']}"}}
    cookie = contract.credentials["cookie"]
    organization = SimpleNamespace(id=contract.organization_id)
    path = case.path_parameters or {}
    with app.app_context():
        if case.operation.label == "POST /api/auth/logout":
            cookie = make_session(SimpleNamespace(id=contract.user_id))
        elif case.operation.label == REMOVE_MEMBER and path["user_id"] in contract.real["user_id"]:
            victim = make_user(name="Victim")
            add_org_member(organization, victim)
            path["user_id"] = victim.id
        elif case.operation.label == DELETE_PROJECT and path["project_id"] in contract.own_projects:
            path["project_id"] = make_project(organization, name="Doomed").id
    return {"cookies": {"sb-access-token": cookie}}


# Requests at the document's limits, each once answered with 500: PostgreSQL's columns
# enforce lengths that SQLite ignores, and both databases overflow on huge integers.
@pytest.mark.parametrize(
    "body",
    [
        pytest.param({"email": "a" * 300 + "@example.test"}, id="default-name-from-a-long-email"),
        pytest.param({"email": "b@example.test", "name": "n" * 128}, id="default-organization-name"),
    ],
)
def test_sign_up_at_the_documented_limits_succeeds(client, body):
    response = client.post("/api/auth/signup", json={**body, "password": PASSWORD})
    assert response.status_code == 201, response.json


def test_sign_up_email_too_long_once_lower_cased_is_rejected(client):
    # "İ" lower-cases to two code points: 200 of them fit the limit, 400 do not.
    email = "İ" * 200 + "@example.test"
    response = client.post("/api/auth/signup", json={"email": email, "password": PASSWORD})
    assert response.status_code == 400
    assert "email" in response.json["error"]


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ("translations/history?cursor=2147483647", 200),
        ("translations/history?cursor=2147483648", 400),
        ("translations/trash?offset=2147483647", 200),
        ("translations/trash?offset=10805751431005291351428300800", 400),
    ],
)
def test_paging_positions_beyond_the_documented_maximum_are_rejected(world, as_caller, query, status):
    response = as_caller("org_owner").get(f"/api/projects/{world.project_id}/{query}")
    assert response.status_code == status, response.json
