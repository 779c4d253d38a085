from marshmallow import fields, validate

from loko.fields import ApiSchema, LanguageCode, no_control_characters

NAME = [validate.Length(min=1, max=128), no_control_characters]
EMOJI = [validate.Length(max=32), no_control_characters]


class LanguagesQuery(ApiSchema):
    stats = fields.Boolean(
        load_default=False, metadata={"description": "Add translated, total and progress."}
    )


class LanguageOut(ApiSchema):
    code = fields.String(required=True)
    name = fields.String(required=True)
    emoji = fields.String(required=True)
    translated = fields.Integer(metadata={"description": "With stats=true: values over active keys."})
    total = fields.Integer(metadata={"description": "With stats=true: active keys."})
    progress = fields.Float(metadata={"description": "With stats=true: percent, one decimal."})


class LanguageList(ApiSchema):
    languages = fields.List(fields.Nested(LanguageOut), required=True)


class LanguageCreate(ApiSchema):
    code = LanguageCode(required=True)
    name = fields.String(validate=NAME)
    emoji = fields.String(validate=EMOJI)


class LanguageUpdate(ApiSchema):
    currentCode = LanguageCode(required=True, existing=True)
    code = LanguageCode()
    name = fields.String(validate=NAME)
    emoji = fields.String(validate=EMOJI)


class LanguageDelete(ApiSchema):
    code = LanguageCode(required=True, existing=True)
    permanent = fields.Boolean(
        load_default=False,
        metadata={
            "description": "Delete for good at once. By default the language's values are kept, "
            "as one operation, for the trash's retention period and can be restored in one step."
        },
    )
