"""/api/projects/{id}/repohost: the configuration, push, sync and the provider's webhook."""

from flask import Blueprint, request, url_for

from loko.auth.identity import current_actor
from loko.auth.schemas import SuccessOut
from loko.http import json_body, load_body, schema_instance
from loko.openapi import documented
from loko.repohost import service
from loko.repohost.schemas import PushOut, RepoHostEnvelope, RepoHostIn, SyncIn, SyncOut, WebhookResult

repohost_api = Blueprint("repohost_api", __name__)
BASE = "/projects/<uuid:project_id>/repohost"
TAGS = ("repository",)


@repohost_api.get(BASE)
@documented("The repository configuration (never the token)", tags=TAGS, responses={200: RepoHostEnvelope})
def get_repohost(project_id):
    return RepoHostEnvelope().dump({"repohost": service.get_config(current_actor(), str(project_id))})


@repohost_api.post(BASE)
@documented(
    "Configure the repository (the connection is checked first)",
    tags=TAGS,
    body=RepoHostIn,
    responses={200: RepoHostEnvelope},
    errors=(400, 401, 403, 404, 502),
    description=(
        "Checks that the repository exists, that the token may push to it and that the branch "
        "exists, and says precisely what is wrong otherwise (400); a host that fails is a 502. "
        "The token is stored encrypted and never returned; left out, the stored one is kept, "
        "unless `provider`, `api_url` or `repository` changes (400 naming `token`), so that a "
        "stored token never goes to another host or repository. The first configuration answers "
        "the webhook's URL and secret, once. `api_url` and the repository's host must not be private, "
        "loopback or link-local addresses unless LOKO_OUTBOUND_ALLOW_PRIVATE is set."
    ),
)
def configure_repohost(project_id):
    config, webhook = service.configure(current_actor(), str(project_id), load_body(RepoHostIn))
    answer = {"repohost": config}
    if webhook is not None:
        answer["webhook"] = {"url": _webhook_url(project_id), **webhook}
    return RepoHostEnvelope().dump(answer)


def _webhook_url(project_id) -> str:
    return url_for("repohost_api.repohost_webhook", project_id=project_id, _external=True)


@repohost_api.delete(BASE)
@documented("Remove the repository configuration", tags=TAGS, responses={200: SuccessOut})
def delete_repohost(project_id):
    service.delete_config(current_actor(), str(project_id))
    return SuccessOut().dump({"success": True})


@repohost_api.post(BASE + "/push")
@documented(
    "Create or update the pull request with the project's translations",
    tags=TAGS,
    responses={200: PushOut},
    errors=(400, 401, 403, 404, 409, 502),
    description=(
        "Exports in the configured format and path template and compares with the base branch. "
        "When something differs, commits to the branch `loko/translations` (rebuilt from the base "
        "branch each time) and opens its pull request, or updates the one already open: one pull "
        "request per project. Nothing changed: `{pullRequest: null}`; if the project's pull request "
        "is still open from an earlier push (its changes were reverted in Loko since), it is closed "
        "through the host's API, and the run's summary says so. A path template that runs into a "
        "file (or a directory) of the base branch is a 400 naming `path`. 409 while another push or "
        "sync of the project runs; 502 names the host's answer when it fails."
    ),
)
def push_repohost(project_id):
    return PushOut().dump(service.push(current_actor(), str(project_id)))


@repohost_api.post(BASE + "/sync")
@documented(
    "Import the translations of the base branch",
    tags=TAGS,
    body=SyncIn,
    responses={200: SyncOut},
    errors=(400, 401, 403, 404, 409, 502),
    description=(
        "Reads the files matching the path template on the base branch and imports them with the "
        "import service (one transaction). `dryRun` answers the same diff without writing; keys "
        "missing from the branch stay unless `removedKeys` is `trash`. To import exactly what a "
        "preview showed, send its `commit`: when the base branch has moved since, the answer is a "
        "409 naming both commits and nothing is imported."
    ),
)
def sync_repohost(project_id):
    data = schema_instance(SyncIn).load(json_body()) if request.content_length else SyncIn().load({})
    result = service.sync(
        current_actor(), str(project_id), data["dryRun"], data["removedKeys"], commit=data["commit"]
    )
    return SyncOut().dump(result)


@repohost_api.post(BASE + "/webhook")
@documented(
    "The provider's push webhook (signed with the webhook secret)",
    tags=TAGS,
    auth=(),
    responses={202: WebhookResult, 200: WebhookResult},
    errors=(400, 401, 404, 409),
    description=(
        "Set it on the repository for push events with the secret shown when the repository was "
        "configured. GitHub: `X-Hub-Signature-256`; Gitea: `X-Gitea-Signature`; GitLab: "
        "`X-Gitlab-Token`. A push to the base branch queues a sync of the project (as the user who "
        "configured it) and answers 202 with the job; a delivery while a sync of the project is "
        "queued joins it, and one while a push or sync runs waits for it to end. Other events "
        "answer 200 with `queued: false`. A missing or wrong signature is a 401; 409 when the user "
        "who configured the repository no longer exists."
    ),
)
def repohost_webhook(project_id):
    answer = service.webhook(str(project_id), request.headers, request.get_data())
    return WebhookResult().dump(answer), 202 if answer["queued"] else 200
