from marshmallow import fields, validate

from loko.auth.schemas import MIN_PASSWORD, MembershipOut, UserBriefOut, UserOut
from loko.fields import ApiSchema, WholeNumber, no_control_characters
from loko.organizations.models import INVITATION_DAYS_DEFAULT, INVITATION_DAYS_MAX, ORGANIZATION_ROLES


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


class InvitationCreate(ApiSchema):
    role = fields.String(validate=validate.OneOf(ORGANIZATION_ROLES), load_default="member")
    expires_in_days = WholeNumber(
        validate=validate.Range(min=1, max=INVITATION_DAYS_MAX),
        load_default=INVITATION_DAYS_DEFAULT,
        metadata={"description": f"Days until the link expires (default {INVITATION_DAYS_DEFAULT})."},
    )


class InvitationOut(ApiSchema):
    id = fields.String(required=True)
    organization_id = fields.String(required=True)
    role = fields.String(required=True)
    created_at = fields.DateTime(required=True)
    expires_at = fields.DateTime(required=True)
    created_by = fields.Nested(UserBriefOut, allow_none=True, required=True)


class InvitationCreated(ApiSchema):
    url = fields.String(
        required=True, metadata={"description": "The invitation link to send; shown only in this response."}
    )
    token = fields.String(required=True, metadata={"description": "The link's secret; shown only once."})
    invitation = fields.Nested(InvitationOut, required=True)


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
