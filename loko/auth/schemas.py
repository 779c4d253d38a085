from marshmallow import fields, validate

from loko.fields import ApiSchema, no_control_characters

MIN_PASSWORD = 8


class SignupIn(ApiSchema):
    email = fields.Email(required=True, validate=validate.Length(max=320))
    password = fields.String(required=True, validate=validate.Length(min=MIN_PASSWORD, max=1024))
    name = fields.String(validate=[validate.Length(min=1, max=128), no_control_characters])
    organization = fields.String(validate=[validate.Length(min=1, max=128), no_control_characters])


class ProfilePatch(ApiSchema):
    name = fields.String(required=True, validate=[validate.Length(min=1, max=128), no_control_characters])


class PasswordChange(ApiSchema):
    current_password = fields.String(required=True, validate=validate.Length(min=1, max=1024))
    new_password = fields.String(
        required=True,
        validate=validate.Length(min=MIN_PASSWORD, max=1024),
        metadata={"description": "At least 8 characters."},
    )


class PasswordResetRequest(ApiSchema):
    email = fields.Email(required=True, validate=validate.Length(max=320))


class PasswordReset(ApiSchema):
    token = fields.String(required=True, validate=[validate.Length(min=1, max=512), no_control_characters])
    new_password = fields.String(required=True, validate=validate.Length(min=MIN_PASSWORD, max=1024))


class LoginIn(ApiSchema):
    email = fields.String(required=True, validate=[validate.Length(min=1, max=320), no_control_characters])
    password = fields.String(required=True, validate=validate.Length(min=1, max=1024))


class UserOut(ApiSchema):
    id = fields.String(required=True)
    email = fields.String(required=True)
    name = fields.String(required=True)
    created_at = fields.DateTime(required=True)


class UserBriefOut(ApiSchema):
    id = fields.String(required=True)
    email = fields.String(required=True)
    name = fields.String(required=True)


class UserEnvelope(ApiSchema):
    user = fields.Nested(UserOut, required=True)


class MembershipOut(ApiSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    role = fields.String(required=True, validate=validate.OneOf(["owner", "admin", "member"]))


class MeOut(ApiSchema):
    user = fields.Nested(UserOut, required=True)
    organizations = fields.List(fields.Nested(MembershipOut), required=True)


class SuccessOut(ApiSchema):
    success = fields.Boolean(required=True)
