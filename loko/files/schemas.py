from marshmallow import fields, validate

from loko.fields import ApiSchema, FileName, LanguageCode, no_control_characters


class FilesQuery(ApiSchema):
    fileName = FileName()
    language = LanguageCode()


class LanguageIn(ApiSchema):
    code = LanguageCode(required=True)
    name = fields.String(validate=[validate.Length(min=1, max=128), no_control_characters])
    emoji = fields.String(validate=[validate.Length(max=32), no_control_characters])


class FilesCreate(ApiSchema):
    fileName = FileName(required=True)
    languages = fields.List(
        fields.Nested(LanguageIn), required=True, validate=validate.Length(min=1, max=500)
    )


class FileRename(ApiSchema):
    fileName = FileName(required=True)
    newFileName = FileName(required=True)


class FileDelete(ApiSchema):
    fileName = FileName(required=True)
    languageCode = LanguageCode()
    permanent = fields.Boolean(
        load_default=False,
        metadata={
            "description": "Delete for good at once. By default what is removed is kept, as one "
            "operation, for the trash's retention period and can be restored in one step "
            "(POST /api/projects/{id}/history/revert with its operationId)."
        },
    )


class FileRecordOut(ApiSchema):
    id = fields.String(required=True)
    project_id = fields.String(required=True)
    file_name = fields.String(required=True)
    language = fields.String(required=True)
    language_name = fields.String(required=True)
    language_emoji = fields.String(required=True)


class FileList(ApiSchema):
    files = fields.List(fields.Nested(FileRecordOut), required=True)
