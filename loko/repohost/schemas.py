"""Repository integration: the configuration, the runs' answers."""

from marshmallow import fields, validate

from loko.fields import MAX_TAGS, ApiSchema, TagName
from loko.formats.registry import FORMAT_NAMES
from loko.imports.schemas import TrashedKey, ValueChange

PROVIDER_NAMES = ("github", "gitlab", "gitea")
REPOSITORY = r"^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)+$"
BRANCH = r"^(?!/)(?!.*\.\.)(?!.*//)[^\x00-\x20~^:?*\[\\]{1,250}(?<![/.])$"
COMMIT = r"^(?:[0-9a-f]{40}|[0-9a-f]{64})$"  # a full SHA-1 or SHA-256 object name


def _tag_filter(description: str, **kwargs):
    return fields.List(
        TagName(), validate=validate.Length(max=MAX_TAGS), metadata={"description": description}, **kwargs
    )


TAGS_RULE = (
    "Only keys with every one of these tags: a push exports only them, and a sync gives every key "
    "its files name these tags and trashes (with `removedKeys=trash`) only keys they keep."
)
EXCLUDE_TAGS_RULE = "Only keys with none of these tags (a push and a sync leave the others alone)."


class RepoHostIn(ApiSchema):
    provider = fields.String(required=True, validate=validate.OneOf(PROVIDER_NAMES))
    repository = fields.String(
        required=True,
        validate=[validate.Length(max=256), validate.Regexp(REPOSITORY)],
        metadata={"description": "`owner/name` (GitLab: the project's full path, groups included)."},
    )
    branch = fields.String(
        load_default="main",
        validate=[validate.Length(min=1, max=250), validate.Regexp(BRANCH)],
        metadata={"description": "The base branch the pull request goes into and sync reads."},
    )
    path = fields.String(
        load_default="locales/{language}/{fileName}.json",
        validate=validate.Length(min=1, max=512),
        metadata={
            "description": "Where each file lives: a template with {fileName} and the language as "
            "{language} (canonical `pt-BR`), {locale} (`pt_BR`, gettext and Java) or {android} "
            "(`pt-rBR`, `b+sr+Latn`, for `values-{android}`); each form is read back as the "
            "canonical code."
        },
    )
    format = fields.String(load_default="json", validate=validate.OneOf(FORMAT_NAMES))
    token = fields.String(
        validate=validate.Length(min=1, max=1024),
        load_only=True,
        metadata={
            "description": "A token that may push and open pull requests; stored encrypted, never "
            "returned. Required the first time and whenever `provider`, `api_url` or `repository` "
            "changes; left out otherwise, the stored one is kept."
        },
    )
    api_url = fields.String(
        allow_none=True,
        validate=[validate.Length(max=512), validate.URL(schemes={"https", "http"}, require_tld=False)],
        metadata={"description": "API root of GitHub Enterprise or a self-hosted GitLab/Gitea."},
    )
    tags = _tag_filter(TAGS_RULE, load_default=list)
    excludeTags = _tag_filter(EXCLUDE_TAGS_RULE, load_default=list)


class RepoHostOut(ApiSchema):
    provider = fields.String(required=True)
    repository = fields.String(required=True)
    branch = fields.String(required=True)
    path = fields.String(required=True)
    format = fields.String(required=True)
    api_url = fields.String(allow_none=True, required=True)
    tags = _tag_filter(TAGS_RULE, required=True)
    excludeTags = _tag_filter(EXCLUDE_TAGS_RULE, required=True)
    token_set = fields.Boolean(required=True)
    pullRequestBranch = fields.String(required=True, metadata={"description": "The branch Loko pushes to."})
    created_at = fields.DateTime(required=True)
    updated_at = fields.DateTime(required=True)


class WebhookOut(ApiSchema):
    url = fields.String(required=True)
    secret = fields.String(
        required=True, metadata={"description": "Shown once: set it as the webhook's secret."}
    )


class RepoHostEnvelope(ApiSchema):
    repohost = fields.Nested(RepoHostOut, allow_none=True, required=True)
    webhook = fields.Nested(WebhookOut, metadata={"description": "When the project had no configuration."})


class PullRequestOut(ApiSchema):
    url = fields.String(required=True)
    number = fields.Integer(required=True)
    branch = fields.String(required=True)


class PushOut(ApiSchema):
    pullRequest = fields.Nested(PullRequestOut, allow_none=True, required=True)


class SyncIn(ApiSchema):
    dryRun = fields.Boolean(load_default=False)
    removedKeys = fields.String(load_default="keep", validate=validate.OneOf(("keep", "trash")))
    commit = fields.String(
        load_default=None,
        validate=validate.Regexp(COMMIT, error="must be a full commit id (40 or 64 lowercase hex digits)."),
        metadata={"description": "The commit a preview read; 409 if the base branch has moved since."},
    )


class SyncChanges(ApiSchema):
    created = fields.List(fields.Nested(ValueChange), required=True)
    updated = fields.List(fields.Nested(ValueChange), required=True)
    trashed = fields.List(fields.Nested(TrashedKey), required=True)
    conflicts = fields.List(fields.Nested(ValueChange), required=True)


class SyncOut(ApiSchema):
    created = fields.Integer(required=True)
    updated = fields.Integer(required=True)
    unchanged = fields.Integer(required=True)
    trashed = fields.Integer(required=True)
    conflicts = fields.Integer(required=True)
    files = fields.List(fields.String(), required=True, metadata={"description": "The paths read."})
    dryRun = fields.Boolean(required=True)
    commit = fields.String(required=True, metadata={"description": "The base branch's commit read."})
    changes = fields.Nested(SyncChanges, required=True)
    truncated = fields.Boolean(required=True)


class WebhookResult(ApiSchema):
    queued = fields.Boolean(
        required=True, metadata={"description": "Whether a sync was queued (a push to the base branch)."}
    )
    job = fields.String(
        metadata={"description": "The sync's job: GET /api/projects/{id}/jobs/{job} tells how it went."}
    )
    reason = fields.String(metadata={"description": "Why nothing was queued."})
