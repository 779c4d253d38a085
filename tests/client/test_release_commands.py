"""``loko release create/list/compare/delete`` and ``loko pull --as-of/--release`` against a
real ``loko serve``."""

import json
from datetime import UTC, datetime

import pytest

from tests.client.test_against_server import DE, LOCALES, project  # noqa: F401  (fixture)

pytestmark = pytest.mark.slow


def test_a_release_is_created_listed_compared_and_deleted(loko, project):  # noqa: F811
    project.upsert("common", "de", {"hello": "Grüße", "title": "Laden"})
    result = loko("release", "create", "v1.2", "--description", "Spring")
    assert result.exit_code == 0, result.output
    assert "Release v1.2" in result.output
    project.upsert("common", "de", {"hello": "Hallo"})
    listed = loko("release", "list", "--json")
    assert listed.exit_code == 0, listed.output
    assert [item["name"] for item in json.loads(listed.stdout)["releases"]] == ["v1.2"]
    compared = loko("release", "compare", "v1.2", "--json")
    assert compared.exit_code == 0, compared.output
    changed = json.loads(compared.stdout)["languages"]["de"]["changed"]
    assert changed == [{"fileName": "common", "key": "hello", "old": "Grüße", "new": "Hallo"}]
    assert loko("release", "delete", "v1.2").exit_code == 0
    assert "No releases yet." in loko("release", "list").output


def test_a_taken_release_name_fails_naming_it(loko, project):  # noqa: F811
    assert loko("release", "create", "v1").exit_code == 0
    result = loko("release", "create", "v1")
    assert result.exit_code != 0
    assert "name:" in result.output


def test_pull_as_of_a_release_or_an_instant_writes_the_past(loko, workdir, project):  # noqa: F811
    project.upsert("common", "de", {"hello": "Grüße", "title": "Laden"})
    instant = datetime.now(UTC).isoformat()
    assert loko("release", "create", "v1").exit_code == 0
    project.upsert("common", "de", {"hello": "Hallo"})
    result = loko("pull", "--release", "v1")
    assert result.exit_code == 0, result.output
    assert (workdir / "locales/de/common.json").read_bytes() == DE
    assert loko("pull").exit_code == 0
    assert b"Hallo" in (workdir / "locales/de/common.json").read_bytes()
    assert loko("pull", "--as-of", instant).exit_code == 0
    assert (workdir / "locales/de/common.json").read_bytes() == DE


def test_pull_as_of_the_future_fails_naming_as_of(loko, project):  # noqa: F811
    result = loko("pull", "--as-of", "2999-01-01T00:00:00Z")
    assert result.exit_code != 0
    assert "asOf:" in result.output
