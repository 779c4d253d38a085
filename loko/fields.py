"""Marshmallow fields and validators shared by several features' schemas."""

import re

from marshmallow import RAISE, Schema, ValidationError, fields, validate

from loko.languages.codes import CODE_SHAPE, MAX_CODE, canonical_code

CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f]")
LANGUAGE_CODE = CODE_SHAPE
MAX_KEY = 256
MAX_FILE_NAME = 256
MAX_VALUE = 8192
MAX_LANGUAGE_CODE = MAX_CODE
# An address Loko calls out to: http or https, a host name or IPv4 address, an optional port,
# then printable ASCII.
HTTP_URL_PATTERN = (
    r"^https?://[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}[A-Za-z0-9])?(?::[0-9]{1,5})?(?:[/?#][!-~]*)?$"
)


class ApiSchema(Schema):
    """Base for every request and response schema: unknown fields are an error."""

    class Meta:
        unknown = RAISE


class WholeNumber(fields.Integer):
    """An integer in a JSON body: ``22`` or ``22.0`` (JSON Schema's ``integer`` admits both),
    never ``"22"``, ``22.5`` or ``true``."""

    def _validated(self, value):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.make_error("invalid", input=value)
        if isinstance(value, float) and not value.is_integer():
            raise self.make_error("invalid", input=value)
        return super()._validated(int(value))


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


class CanonicalLanguageCode(fields.String):
    """A language code, loaded in its canonical form (``pt_br`` -> ``pt-BR``); a code the
    IANA registry does not know is an error naming it. With ``existing=True`` the field
    names a language the project may already have, and such a code is taken as given: a
    code stored before codes were checked can still be renamed or deleted."""

    def __init__(self, *, existing: bool = False, **kwargs):
        super().__init__(**kwargs)
        self.existing = existing

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        try:
            return canonical_code(text)
        except ValueError as error:
            if self.existing and LANGUAGE_CODE.match(text) and len(text) <= MAX_LANGUAGE_CODE:
                return text
            raise ValidationError(str(error)) from None


class LanguageMap(fields.Dict):
    """A map keyed by language codes, loaded with canonical keys; two keys that are one code
    (``en`` and ``EN``) are an error rather than one silently overwriting the other."""

    def __init__(self, **kwargs):
        super().__init__(keys=LanguageCode(), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        loaded = super()._deserialize(value, attr, data, **kwargs)
        if isinstance(value, dict) and len(loaded) != len(value):
            seen: dict[str, str] = {}
            for key in value:
                code = canonical_code(key)
                if code in seen:
                    raise ValidationError(f"{seen[code]!r} and {key!r} are both the language {code!r}.")
                seen[code] = key
        return loaded


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
    value = item.get("value")
    return is_plain_key(item.get("key")) and type(value) is str and len(value) <= MAX_VALUE


def is_plain_key(key) -> bool:
    """True when TranslationKey accepts ``key`` as it is."""
    return (
        type(key) is str
        and 0 < len(key) <= MAX_KEY
        and CONTROL_CHARACTERS.search(key) is None
        and key == key.strip()
    )


def is_plain_file_name(name) -> bool:
    """True when FileName accepts ``name`` as it is."""
    return (
        type(name) is str
        and 0 < len(name) <= MAX_FILE_NAME
        and CONTROL_CHARACTERS.search(name) is None
        and "\\" not in name
        and not name.startswith("/")
        and all(segment not in ("", ".", "..") for segment in name.split("/"))
    )


def plain_language_code(code) -> str | None:
    """The canonical form LanguageCode loads ``code`` as, or None when it would refuse it."""
    try:
        canonical = canonical_code(code)
    except ValueError:
        return None
    return canonical if len(canonical) <= MAX_LANGUAGE_CODE and LANGUAGE_CODE.match(canonical) else None


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


LANGUAGE_CODE_DESCRIPTION = (
    "BCP 47 language code, e.g. 'de', 'pt-BR', 'zh-Hant-TW', 'es-419'. Read in any casing, with "
    "'_' for '-' ('pt_br'), and stored and returned in the canonical form ('pt-BR'); a code the "
    "IANA language subtag registry does not know is refused."
)


def LanguageCode(**kwargs):
    metadata = {"description": LANGUAGE_CODE_DESCRIPTION, "example": "de", **kwargs.pop("metadata", {})}
    return CanonicalLanguageCode(validate=valid_language_code, metadata=metadata, **kwargs)


MAX_LIMITED_LANGUAGES = 1000


def LanguageLimit(**kwargs):
    """The languages a member's or a key's writes are limited to: a list of codes of the
    project; null or empty for every language."""
    return fields.List(
        LanguageCode(existing=True),
        allow_none=True,
        validate=validate.Length(max=MAX_LIMITED_LANGUAGES),
        **{
            "metadata": {
                "description": "The languages whose values it may write (and review, with that "
                "right), each a language of the project; null or empty: every language. Keys, "
                "files, languages and key details are managed only with rights in every language.",
                "example": ["de", "fr"],
            },
            **kwargs,
        },
    )


def TranslationValue(**kwargs):
    return fields.String(
        validate=validate.Length(max=MAX_VALUE),
        metadata={"description": "Translated text, at most 8,192 characters."},
        **kwargs,
    )


MAX_BULK_ITEMS = 10_000


def comma_items(raw: list[str], strip: bool = True) -> list[str]:
    """The items of texts given several times or comma-separated (``a, b`` and ``c``), empty
    ones left out; with ``strip``, without the spaces around each."""
    parts = (part.strip() if strip else part for item in raw for part in item.split(","))
    return [part for part in parts if part]


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
        items = comma_items(raw, self.strip)
        return tuple(dict.fromkeys(self.inner.deserialize(item) for item in items))


# A tag on keys: letters, digits and . _ - : (no comma: tags are listed comma-separated in a
# query), a letter or a digit first.
MAX_TAG = 50
TAG_PATTERN = re.compile(r"[^\W_][\w.:-]*")
TAG_PATTERN_ANCHORED = r"^[^\W_][\w.:-]*$"
TAG_RULE = (
    f"a tag is 1 to {MAX_TAG} letters, digits and the characters . _ - :, beginning with a letter or a digit"
)
# Tags one filter or one request may name.
MAX_TAGS = 50


def valid_tag(value: str) -> None:
    if not 1 <= len(value) <= MAX_TAG or TAG_PATTERN.fullmatch(value) is None:
        raise ValidationError(f"{value[:60]!r} is not a valid tag: {TAG_RULE}.")


def TagName(**kwargs):
    """A tag's name; the document states its rule as a pattern and lengths too."""
    metadata = {"description": TAG_RULE[0].upper() + TAG_RULE[1:] + ".", "example": "web"}
    return fields.String(
        validate=[
            validate.Length(min=1, max=MAX_TAG),
            validate.Regexp(TAG_PATTERN_ANCHORED, error=f"Not a valid tag: {TAG_RULE}."),
            valid_tag,
        ],
        metadata={**metadata, **kwargs.pop("metadata", {})},
        **kwargs,
    )


def TagList(description: str, **kwargs):
    """Tags in a query: the parameter repeated or the tags comma-separated."""
    return CommaList(
        TagName(),
        validate=validate.Length(max=MAX_TAGS),
        metadata={"description": description, "example": "web,ios"},
        **kwargs,
    )
