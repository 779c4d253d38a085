"""The OpenAPI document is a contract: generated requests, valid and invalid, sent by an
organization owner and by a project API key, must get only documented status codes and
content types, bodies that match the documented schemas, and never a 5xx. Operations that
would reach beyond the loopback are not sent (``NOT_SENT``).

The run is bounded and derandomized: a few examples per operation and generation mode,
the same ones on every run. Path, query and body values are often swapped for real ones
(the world's projects, organization, users, API keys, languages, files, translation keys
and ids, see conftest.py) so that the deep paths answer 200 and 201, not only 400 and 404.
"""

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.core.failures import FailureGroup

from tests.api.test_document_acceptance import SHARDS, operations_sent
from tests.factories import PASSWORD

MAX_EXAMPLES = 6
# A sign-in checks a password against a hash made at full cost (about 0.3 s each).
FEWER_EXAMPLES = {"POST /api/auth/login": 3}
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.mark.slow
@pytest.mark.parametrize("shard", range(SHARDS))
def test_api_honours_its_document(app, contract, contract_schema, shard):
    failures = {}
    for operation in operations_sent(contract_schema, contract, shard):
        for mode in contract.modes:
            try:
                _exercise(app, contract, operation, mode)
            except FailureGroup as error:
                failures[f"{operation.label} [{mode.value}]"] = str(error)
            except Unsatisfiable:
                # Nothing to make invalid: the operation takes no parameters and no body.
                assert mode is GenerationMode.NEGATIVE, operation.label
    assert not failures, "\n\n".join(f"{label}:\n{report}" for label, report in failures.items())


def _exercise(app, contract, operation, mode: GenerationMode) -> None:
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
        case.call_and_validate(checks=CHECKS, **contract.call_options(app, case))

    run()


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
