from marshmallow import fields, validate

from loko.auth.schemas import MembershipOut, UserBriefOut
from loko.fields import ApiSchema, no_control_characters
from loko.organizations.models import ORGANIZATION_ROLES


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
