from marshmallow import fields, pre_load, validate

from loko.auth.schemas import UserBriefOut
from loko.fields import ApiSchema, LanguageCode, LanguageLimit, UuidString, no_control_characters
from loko.projects.check_levels import LEVELS, OneOfChecks, check_levels
from loko.projects.models import LINK_FIELDS, PROJECT_ROLES

NAME = [validate.Length(min=1, max=32), no_control_characters]
DESC = validate.Length(max=1000)
EMOJI = [validate.Length(max=32), no_control_characters]
READ_ONLY_FIELDS = (
    "id",
    "organization_id",
    "created_at",
    "canEdit",
    "canDelete",
    "canViewTranslations",
    "canEditTranslations",
    "canReviewTranslations",
    "canManageKeys",
    "editableLanguages",
)

SOURCE_LANGUAGE_OUT = (
    "The language the project's keys are written in: the editor's source column and the "
    "language its new-key form asks for, the source of bilingual exports (XLIFF), the language "
    "whose imported files decide a key's comment and context, and what agents translate from. "
    "Set to the first language added to the project; null while it has none."
)
SOURCE_LANGUAGE_CREATE = (
    "Optional: the project's source language, added to the project as its first language."
)
SOURCE_LANGUAGE_UPDATE = (
    "One of the project's languages (400 otherwise; null only as fetched, for a project without "
    "languages). A language that is the source cannot be deleted until another one is chosen."
)
CHECKS_OUT = (
    "Each check's level: off (not run), warn (its issues are stored and listed) or refuse (a "
    "write of a value it finds something in is refused with 400)."
)
CHECKS_UPDATE = (
    "Some checks' levels, {code: off | warn | refuse}; checks not named keep theirs. Turning a "
    "check off removes its stored issues."
)
PUBLIC = (
    "Whether a signed-in person who is not a member (a public visitor) reads the project's source "
    "texts, current values and proposals and proposes in its languages, rate limited, unless an "
    "admin blocked them (PUT /api/projects/{id}/proposal-blocks/{userId}). Off for new projects."
)
MEMORY_SHARED = (
    "Whether the project's values are in the organization's shared translation memory: found "
    "by every member's lookups (and the organization's keys'), even in projects they may not "
    "open. Off for new projects. Unshared, its values are found only by those who may view "
    "the project itself."
)


def described(field, description: str):
    field.metadata = {**field.metadata, "description": description}
    return field


class ProjectCreate(ApiSchema):
    name = fields.String(required=True, validate=NAME)
    organization_id = UuidString(required=True)
    desc = fields.String(validate=DESC, load_default="")
    emoji = fields.String(validate=EMOJI, load_default="")
    source_language = described(LanguageCode(), SOURCE_LANGUAGE_CREATE)


class ProjectUpdate(ApiSchema):
    """Every field optional; the read-only Project fields are accepted and ignored so a
    client can send back what it fetched."""

    class Meta(ApiSchema.Meta):
        # The link's fields go together: none of them (the link stays), all three set, or
        # all three null (unlink).
        json_schema = {
            "dependentRequired": {
                name: [other for other in LINK_FIELDS if other != name] for name in LINK_FIELDS
            },
            "anyOf": [
                {"properties": {name: {"type": "string"} for name in LINK_FIELDS}},
                {"properties": {name: {"type": "null"} for name in LINK_FIELDS}},
            ],
        }

    name = fields.String(validate=NAME)
    desc = fields.String(validate=DESC)
    emoji = fields.String(validate=EMOJI)
    linked_project_id = UuidString(allow_none=True)
    linked_language_code = LanguageCode(allow_none=True)
    linked_language_target_code = LanguageCode(allow_none=True)
    source_language = described(LanguageCode(allow_none=True), SOURCE_LANGUAGE_UPDATE)
    checks = described(
        fields.Dict(
            keys=fields.String(validate=OneOfChecks()),
            values=fields.String(validate=validate.OneOf(LEVELS)),
        ),
        CHECKS_UPDATE,
    )
    memory_shared = fields.Boolean(metadata={"description": MEMORY_SHARED})
    public = fields.Boolean(metadata={"description": PUBLIC})

    @pre_load
    def drop_read_only_fields(self, data, **_kwargs):
        if isinstance(data, dict):
            return {k: v for k, v in data.items() if k not in READ_ONLY_FIELDS}
        return data


class ProjectOut(ApiSchema):
    id = fields.String(attribute="project.id", required=True)
    name = fields.String(attribute="project.name", required=True)
    desc = fields.String(attribute="project.desc", required=True)
    emoji = fields.String(attribute="project.emoji", required=True)
    organization_id = fields.String(attribute="project.organization_id", required=True)
    linked_project_id = fields.String(attribute="project.linked_project_id", allow_none=True)
    linked_language_code = fields.String(attribute="project.linked_language_code", allow_none=True)
    linked_language_target_code = fields.String(
        attribute="project.linked_language_target_code", allow_none=True
    )
    source_language = fields.String(
        attribute="project.source_language",
        allow_none=True,
        metadata={"description": SOURCE_LANGUAGE_OUT},
    )
    checks = described(
        fields.Function(lambda view: check_levels(view.project.checks), required=True),
        CHECKS_OUT,
    )
    memory_shared = fields.Boolean(
        attribute="project.memory_shared",
        required=True,
        metadata={"description": MEMORY_SHARED},
    )
    public = fields.Boolean(attribute="project.public", required=True, metadata={"description": PUBLIC})
    created_at = fields.DateTime(attribute="project.created_at", required=True)
    canEdit = fields.Boolean(attribute="permissions.can_edit_projects", required=True)
    canDelete = fields.Boolean(attribute="permissions.can_delete", required=True)
    canViewTranslations = fields.Boolean(attribute="permissions.can_view_translations", required=True)
    canEditTranslations = fields.Boolean(attribute="permissions.can_edit_translations", required=True)
    canReviewTranslations = fields.Boolean(
        attribute="permissions.can_review_translations",
        required=True,
        metadata={"description": "Whether the caller may mark values reviewed (never an API key)."},
    )
    canManageKeys = fields.Boolean(
        attribute="permissions.can_manage_keys",
        required=True,
        metadata={
            "description": "Whether the caller may create, rename, trash and delete keys, change "
            "key details, files and languages: edit rights in every language."
        },
    )
    editableLanguages = fields.Function(
        lambda view: None if view.permissions.languages is None else sorted(view.permissions.languages),
        required=True,
        allow_none=True,
        metadata={
            "description": "The languages the caller's writes are limited to; null: not limited "
            "(canEditTranslations says whether they write at all)."
        },
    )


class ProjectEnvelope(ApiSchema):
    project = fields.Nested(ProjectOut, required=True)


class ProjectList(ApiSchema):
    projects = fields.List(fields.Nested(ProjectOut), required=True)


class ProjectMemberSet(ApiSchema):
    role = fields.String(
        required=True,
        allow_none=True,
        validate=validate.OneOf(PROJECT_ROLES),
        metadata={
            "description": "admin, reviewer, editor, contributor or viewer; null removes the project "
            "role. A reviewer may edit translations and mark them reviewed; a contributor views, "
            "proposes values (never writes them) and comments."
        },
    )
    languages = LanguageLimit(
        metadata={
            "description": "For an editor or reviewer: the languages whose values they may write "
            "and review, each a language of the project; null or empty: every language. Left out: "
            "unchanged. Another role is never limited (its limit is dropped).",
            "example": ["de", "fr"],
        }
    )


class ProjectMemberOut(ApiSchema):
    user = fields.Nested(UserBriefOut, required=True)
    role = fields.String(required=True, allow_none=True)
    languages = fields.List(
        fields.String(),
        required=True,
        allow_none=True,
        metadata={"description": "The languages the member's writes are limited to; null: every language."},
    )


class ProjectMemberEnvelope(ApiSchema):
    member = fields.Nested(ProjectMemberOut, required=True)
