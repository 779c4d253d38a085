"""Marshmallow fields and validators shared by several features' schemas."""

import re

from marshmallow import RAISE, Schema, ValidationError, fields, validate

CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f]")
LANGUAGE_CODE = re.compile(r"^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$")
MAX_KEY = 256
MAX_FILE_NAME = 256
MAX_VALUE = 8192
MAX_LANGUAGE_CODE = 35


class ApiSchema(Schema):
    """Base for every request and response schema: unknown fields are an error."""

    class Meta:
        unknown = RAISE


class UuidString(fields.UUID):
    """A UUID given as text, kept as its canonical lowercase string."""

    def _deserialize(self, value, attr, data, **kwargs):
        return str(super()._deserialize(value, attr, data, **kwargs))


def no_control_characters(value: str) -> None:
    if CONTROL_CHARACTERS.search(value):
        raise ValidationError("Must not contain control characters.")


def valid_file_name(value: str) -> None:
    """Keep file names usable as relative paths inside an export archive."""
    no_control_characters(value)
    if "\\" in value:
        raise ValidationError("Must not contain a backslash.")
    if value.startswith("/"):
        raise ValidationError("Must not start with '/'.")
    if any(segment in ("", ".", "..") for segment in value.split("/")):
        raise ValidationError("Must not contain empty, '.' or '..' path segments.")


def valid_language_code(value: str) -> None:
    if len(value) > MAX_LANGUAGE_CODE or not LANGUAGE_CODE.match(value):
        raise ValidationError("Not a language code (BCP 47, e.g. 'de' or 'pt-BR').")


def no_surrounding_spaces(value: str) -> None:
    """A key that begins or ends with a space looks like another key and is lost by most
    file formats."""
    if value != value.strip():
        raise ValidationError("Must not begin or end with a space.")


def is_plain_key_value(item) -> bool:
    """True when ``item`` is exactly ``{key, value}`` that TranslationKey and
    TranslationValue accept: a quick check for bulk loads of thousands of items."""
    if type(item) is not dict or len(item) != 2:
        return False
    key, value = item.get("key"), item.get("value")
    return (
        type(key) is str
        and 0 < len(key) <= MAX_KEY
        and CONTROL_CHARACTERS.search(key) is None
        and key == key.strip()
        and type(value) is str
        and len(value) <= MAX_VALUE
    )


def TranslationKey(**kwargs):
    return fields.String(
        validate=[validate.Length(min=1, max=MAX_KEY), no_control_characters, no_surrounding_spaces],
        metadata={
            "description": "Translation key, 1-256 characters, no control characters, no space at either end."
        },
        **kwargs,
    )


def FileName(**kwargs):
    return fields.String(
        validate=[validate.Length(min=1, max=MAX_FILE_NAME), valid_file_name],
        metadata={"description": "File name, 1-256 characters; '/' separates folders."},
        **kwargs,
    )


def LanguageCode(**kwargs):
    return fields.String(
        validate=valid_language_code,
        metadata={"description": "BCP 47 language code, e.g. 'de' or 'pt-BR'.", "example": "de"},
        **kwargs,
    )


def TranslationValue(**kwargs):
    return fields.String(
        validate=validate.Length(max=MAX_VALUE),
        metadata={"description": "Translated text, at most 8,192 characters."},
        **kwargs,
    )


MAX_BULK_ITEMS = 10_000


class CommaList(fields.Field):
    """A query parameter given several times or comma-separated, as a tuple of items; empty
    items are ignored. With ``strip=False`` items are taken as written (a file name may
    begin or end with a space); otherwise the spaces around each item are dropped."""

    def __init__(self, inner: fields.Field, *, strip: bool = True, **kwargs):
        super().__init__(**kwargs)
        self.inner = inner
        self.strip = strip

    def _deserialize(self, value, attr, data, **kwargs):
        raw = value if isinstance(value, list) else [value]
        if not all(isinstance(item, str) for item in raw):
            raise ValidationError("Must be a string or a list of strings.")
        parts = (part.strip() if self.strip else part for item in raw for part in item.split(","))
        items = [part for part in parts if part]
        return tuple(dict.fromkeys(self.inner.deserialize(item) for item in items))
