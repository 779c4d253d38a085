"""Configuring a project's repository and removing it are recorded, without the token."""

from tests.audit.helpers import every_stored_text, only
from tests.repohost.conftest import REPOSITORY, TOKEN


def test_configuring_a_repository_is_recorded_without_the_token(app, configured, host):
    event = only(app, configured.organization_id, "repository.configured")
    assert event["actor"][0] == "user"
    assert event["target"] == ("repository", configured.project_id, f"{host.name}: {REPOSITORY}")
    assert event["details"]["repository"] == REPOSITORY
    assert event["details"]["branch"] == "main"
    assert TOKEN not in every_stored_text(app)
    assert configured.webhook_secret not in every_stored_text(app)


def test_removing_a_repository_is_recorded(app, configured):
    assert configured.owner.delete(configured.url("/repohost")).status_code == 200
    event = only(app, configured.organization_id, "repository.removed")
    assert event["details"]["repository"] == REPOSITORY
