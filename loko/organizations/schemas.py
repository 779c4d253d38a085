from marshmallow import fields, validate

from loko.auth.schemas import MIN_PASSWORD, MembershipOut, UserBriefOut, UserOut
from loko.fields import ApiSchema, WholeNumber, no_control_characters
from loko.organizations.models import (
    INVITATION_DAYS_DEFAULT,
    INVITATION_DAYS_MAX,
    INVITATION_NOTE_MAX,
    ORGANIZATION_ROLES,
)


class OrganizationCreate(ApiSchema):
    name = fields.String(required=True, validate=[validate.Length(min=1, max=128), no_control_characters])


class OrganizationRename(ApiSchema):
    name = fields.String(required=True, validate=[validate.Length(min=1, max=128), no_control_characters])


class OrganizationDelete(ApiSchema):
    """The page's typed confirmation."""

    confirm_name = fields.String(required=True, validate=validate.Length(max=128))


class OrganizationOut(ApiSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    role = fields.String(required=True)
    created_at = fields.DateTime(required=True)


class OrganizationEnvelope(ApiSchema):
    organization = fields.Nested(OrganizationOut, required=True)


class OrganizationList(ApiSchema):
    organizations = fields.List(fields.Nested(MembershipOut), required=True)


class MemberAdd(ApiSchema):
    email = fields.String(required=True, validate=[validate.Length(min=1, max=320), no_control_characters])
    role = fields.String(required=True, validate=validate.OneOf(ORGANIZATION_ROLES))


class MemberRole(ApiSchema):
    role = fields.String(required=True, validate=validate.OneOf(ORGANIZATION_ROLES))


class MemberOut(ApiSchema):
    user = fields.Nested(UserBriefOut, required=True)
    role = fields.String(required=True)


class MemberEnvelope(ApiSchema):
    member = fields.Nested(MemberOut, required=True)


class MemberList(ApiSchema):
    members = fields.List(fields.Nested(MemberOut), required=True)


class StrippedString(fields.String):
    """A string loaded without its surrounding whitespace."""

    def _deserialize(self, value, attr, data, **kwargs):
        return super()._deserialize(value, attr, data, **kwargs).strip()


class InvitationCreate(ApiSchema):
    role = fields.String(validate=validate.OneOf(ORGANIZATION_ROLES), load_default="member")
    expires_in_days = WholeNumber(
        validate=validate.Range(min=1, max=INVITATION_DAYS_MAX),
        load_default=INVITATION_DAYS_DEFAULT,
        metadata={"description": f"Days until the link expires (default {INVITATION_DAYS_DEFAULT})."},
    )
    note = StrippedString(
        allow_none=True,
        load_default=None,
        validate=[validate.Length(max=INVITATION_NOTE_MAX), no_control_characters],
        metadata={
            "description": f"Whom the link is for, to tell pending links apart (e.g. “for Maria, German "
            f"reviewer”): at most {INVITATION_NOTE_MAX} characters once surrounding spaces are "
            "removed; blank or left out, no note."
        },
    )
    email = fields.Email(
        allow_none=True,
        load_default=None,
        validate=validate.Length(max=320),
        metadata={
            "description": "E-mail the link to this address (a job sends it after the request; the "
            "note is the address when left out). Refused (400) when the server has no SMTP host. "
            "Whoever opens the link joins, whatever their own address."
        },
    )


class InvitationOut(ApiSchema):
    id = fields.String(required=True)
    organization_id = fields.String(required=True)
    role = fields.String(required=True)
    created_at = fields.DateTime(required=True)
    expires_at = fields.DateTime(required=True)
    created_by = fields.Nested(UserBriefOut, allow_none=True, required=True)
    note = fields.String(
        allow_none=True, required=True, metadata={"description": "Whom the link is for; null without a note."}
    )


class InvitationCreated(ApiSchema):
    url = fields.String(
        required=True, metadata={"description": "The invitation link to send; shown only in this response."}
    )
    token = fields.String(required=True, metadata={"description": "The link's secret; shown only once."})
    invitation = fields.Nested(InvitationOut, required=True)
    emailed = fields.Boolean(
        required=True, metadata={"description": "Whether the link is on its way by e-mail (`email` given)."}
    )


class InvitationList(ApiSchema):
    invitations = fields.List(fields.Nested(InvitationOut), required=True)


class InvitationAccept(ApiSchema):
    token = fields.String(required=True, validate=[validate.Length(min=1, max=128), no_control_characters])


class InvitationAccepted(ApiSchema):
    organization = fields.Nested(MembershipOut, required=True)


class InvitationSignup(ApiSchema):
    token = fields.String(required=True, validate=[validate.Length(min=1, max=128), no_control_characters])
    email = fields.Email(required=True, validate=validate.Length(max=320))
    password = fields.String(required=True, validate=validate.Length(min=MIN_PASSWORD, max=1024))
    name = fields.String(validate=[validate.Length(min=1, max=128), no_control_characters])


class InvitationSignedUp(ApiSchema):
    user = fields.Nested(UserOut, required=True)
    organization = fields.Nested(MembershipOut, required=True)
