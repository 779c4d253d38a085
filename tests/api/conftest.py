"""The world the generated (schemathesis) runs act on: a real organization owner or a
project API key, made through the app, and the hooks that swap generated values for real
ones so that deep paths answer 200 and 201, not only 400 and 404."""

from dataclasses import dataclass
from types import SimpleNamespace

import pytest
import schemathesis
from hypothesis import strategies as st
from hypothesis.strategies._internal.lazy import LazyStrategy
from schemathesis import GenerationMode
from schemathesis.generation.jsonschema import strategy as _jsonschema_strategy

from loko.auth import service as auth_service
from loko.auth.actors import UserActor
from loko.translations import service as translations
from tests.factories import (
    PASSWORD,
    add_language,
    add_org_member,
    build_world,
    cheap_password_hasher,
    make_org,
    make_project,
    make_session,
    make_user,
)


def _build_each_pattern_once():
    """Schemathesis builds a strategy for a string's ``pattern`` each time a schema names it,
    and Hypothesis's strategy cache is too small to keep them across the document's
    operations: rebuilding the language codes' pattern (every IANA code) took four fifths
    of a generated run. A strategy depends only on the pattern and the alphabet, so each is
    built once per test process; the draws from it are the same."""
    build = _jsonschema_strategy._from_pattern
    built = {}

    def once(compiled, ctx):
        key = (compiled.pattern, compiled.flags, ctx.alphabet)
        if key not in built:
            strategy = build(compiled, ctx)
            if isinstance(strategy, LazyStrategy):
                # A filter on a lazy strategy builds it again: the lazy one handed out builds
                # from what was built once, and keeps a short name for Hypothesis's reports.
                concrete = strategy.wrapped_strategy
                strategy = LazyStrategy(
                    lambda: concrete, (), {}, force_repr=f"from_pattern({compiled.pattern[:40]!r})"
                )
            built[key] = strategy
        return built[key]

    _jsonschema_strategy._from_pattern = once


_build_each_pattern_once()

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
    "source_language",
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
DELETE_ORGANIZATION = "DELETE /api/organizations/{organization_id}"


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

    def call_options(self, app, case) -> dict:
        """The caller's key or cookie. A sign-out, a member removal or a deletion of one of
        the organization's projects acts on a victim made for it, so that the session, the
        members, the projects and the organization stay usable for the whole run."""
        if "bearer" in self.credentials:
            return {"headers": {"Authorization": f"Bearer {self.credentials['bearer']}"}}
        cookie = self.credentials["cookie"]
        organization = SimpleNamespace(id=self.organization_id)
        path = case.path_parameters or {}
        with app.app_context():
            if case.operation.label == "POST /api/auth/logout":
                cookie = make_session(SimpleNamespace(id=self.user_id))
            elif case.operation.label == REMOVE_MEMBER and path["user_id"] in self.real["user_id"]:
                victim = make_user(name="Victim")
                add_org_member(organization, victim)
                path["user_id"] = victim.id
            elif case.operation.label == DELETE_PROJECT and path["project_id"] in self.own_projects:
                path["project_id"] = make_project(organization, name="Doomed").id
            elif (
                case.operation.label == DELETE_ORGANIZATION
                and path["organization_id"] == self.organization_id
                and self.user_id
            ):
                path["organization_id"] = make_org(SimpleNamespace(id=self.user_id), name="Doomed").id
        return {"cookies": {"sb-access-token": cookie}}


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
    if value is None:
        # null says something of its own (unlink, no value yet); a real value in its place
        # could break a rule that ties fields together.
        return st.just(value)
    if isinstance(value, list) and name in real:
        # A repeated query parameter: its items are the candidates.
        return st.sampled_from([value, real[name][:1], real[name]])
    return st.sampled_from([value, *real.get(name, [])])
