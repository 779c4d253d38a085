"""An organization's machine translation providers, and the suggestions they make."""

from marshmallow import fields, validate

from loko.fields import (
    HTTP_URL_PATTERN,
    MAX_TAGS,
    ApiSchema,
    FileName,
    LanguageCode,
    LanguageMap,
    TagName,
    TranslationKey,
    no_control_characters,
)
from loko.jobs.schemas import JobOut
from loko.machine.models import PROVIDER_KINDS

MAX_INSTRUCTION = 4000
NAME = [validate.Length(min=1, max=100), no_control_characters]
MODEL = [validate.Length(min=1, max=200), no_control_characters]
INSTRUCTION = validate.Length(max=MAX_INSTRUCTION)


def _kind(**kwargs):
    return fields.String(
        validate=validate.OneOf(PROVIDER_KINDS),
        metadata={
            "description": "`deepl` (DeepL API v2), `libretranslate`, or `openai` (any "
            "OpenAI-compatible chat API: OpenAI, Ollama, vLLM, LiteLLM)."
        },
        **kwargs,
    )


def _base_url(**kwargs):
    return fields.String(
        allow_none=True,
        validate=[validate.Length(max=2048), validate.Regexp(HTTP_URL_PATTERN)],
        metadata={
            "description": "The service's address; null for the public service (DeepL: "
            "api-free.deepl.com for keys ending in `:fx`, else api.deepl.com; LibreTranslate: "
            "libretranslate.com; openai: api.openai.com/v1). Must be https and resolve to public "
            "addresses only, unless LOKO_OUTBOUND_ALLOW_PRIVATE is set."
        },
        **kwargs,
    )


def _api_key(**kwargs):
    return fields.String(
        allow_none=True,
        load_only=True,
        validate=[validate.Length(max=500), no_control_characters],
        metadata={
            "description": "The API key, stored encrypted and never answered (only `hasKey` "
            "and `keyLast4`); null or empty for none."
        },
        **kwargs,
    )


def _language_instructions(**kwargs):
    return LanguageMap(
        values=fields.String(validate=INSTRUCTION),
        metadata={"description": "Instructions for language models, per target language."},
        **kwargs,
    )


def _sees_images(**kwargs):
    return fields.Boolean(
        metadata={
            "description": "`openai` only (false for other kinds whatever is sent): the model "
            "takes images, so a key's suggestion sends it "
            "the screenshot that shows the key (cropped around its region, at most "
            "LOKO_SCREENSHOT_MODEL_SIDE pixels a side, as JPEG)."
        },
        **kwargs,
    )


class MachineProviderIn(ApiSchema):
    kind = _kind(required=True)
    name = fields.String(validate=NAME)
    baseUrl = _base_url(load_default=None)
    model = fields.String(
        allow_none=True,
        validate=MODEL,
        load_default=None,
        metadata={"description": "The model (required for `openai`), e.g. `gpt-4o-mini` or `llama3.1`."},
    )
    apiKey = _api_key(load_default=None)
    instruction = fields.String(
        load_default="",
        validate=INSTRUCTION,
        metadata={"description": "Instructions for language models, for every language."},
    )
    languageInstructions = _language_instructions(load_default=dict)
    enabled = fields.Boolean(load_default=True)
    seesImages = _sees_images(load_default=False)


class MachineProviderPatch(ApiSchema):
    name = fields.String(validate=NAME)
    baseUrl = _base_url()
    model = fields.String(allow_none=True, validate=MODEL)
    apiKey = _api_key()
    instruction = fields.String(validate=INSTRUCTION)
    languageInstructions = _language_instructions()
    enabled = fields.Boolean()
    seesImages = _sees_images()


class MachineProviderOut(ApiSchema):
    id = fields.String(required=True)
    kind = fields.String(required=True, metadata={"enum": list(PROVIDER_KINDS)})
    name = fields.String(required=True)
    baseUrl = fields.String(required=True, allow_none=True)
    model = fields.String(required=True, allow_none=True)
    hasKey = fields.Boolean(required=True)
    keyLast4 = fields.String(
        required=True, allow_none=True, metadata={"description": "The key's last four characters."}
    )
    instruction = fields.String(required=True)
    languageInstructions = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    enabled = fields.Boolean(required=True)
    seesImages = fields.Boolean(required=True)
    createdAt = fields.DateTime(required=True)
    updatedAt = fields.DateTime(required=True)


class MachineProviderEnvelope(ApiSchema):
    provider = fields.Nested(MachineProviderOut, required=True)


class MachineProviderList(ApiSchema):
    providers = fields.List(fields.Nested(MachineProviderOut), required=True)


class ProviderTestOut(ApiSchema):
    ok = fields.Boolean(required=True)
    source = fields.String(required=True, metadata={"description": "The text sent: `Hello {name}`."})
    text = fields.String(
        required=True, allow_none=True, metadata={"description": "The translation, when it worked."}
    )
    error = fields.String(required=True, allow_none=True, metadata={"description": "What went wrong."})


class SuggestionsQuery(ApiSchema):
    fileName = FileName(required=True)
    key = TranslationKey(required=True)
    language = LanguageCode(required=True, metadata={"description": "The target language."})


class SuggestionOut(ApiSchema):
    """A memory item (``text``, ``score``, ``sourceText``, where it comes from), a glossary
    item (``term``, ``translation``, ``forbidden``, ``note``: a term found in the source text)
    or a machine item (``provider``, ``providerId``, ``kind``, ``text``)."""

    source = fields.String(
        required=True,
        metadata={
            "enum": ["memory", "glossary", "machine"],
            "description": "`memory` (the organization's translation memory: `score`, where it comes "
            "from), `glossary` (a term found in the source text) or `machine` (a provider: "
            "`provider`, `providerId`, `kind`).",
        },
    )
    provider = fields.String(metadata={"description": "The provider's name (machine)."})
    providerId = fields.String()
    kind = fields.String(metadata={"enum": list(PROVIDER_KINDS)})
    text = fields.String(metadata={"description": "The translation (memory, machine)."})
    score = fields.Integer(metadata={"description": "How alike the source texts are, 0-100 (memory)."})
    sourceText = fields.String(metadata={"description": "The source text the match translates (memory)."})
    origin = fields.String(metadata={"enum": ["project", "tmx"]})
    project = fields.String(allow_none=True, metadata={"description": "The project's name (memory)."})
    projectId = fields.String(allow_none=True)
    file = fields.String(allow_none=True)
    key = fields.String(allow_none=True)
    updatedAt = fields.DateTime(allow_none=True)
    adapted = fields.Boolean(
        metadata={"description": "memory: `text` has this key's placeholders in place of the match's."}
    )
    placeholdersDiffer = fields.Boolean(
        metadata={
            "description": "memory: the match's placeholders cannot be mapped onto this key's (score "
            "at most 99; its text as stored)."
        }
    )
    term = fields.String(metadata={"description": "glossary: the term found in the source text."})
    translation = fields.String(metadata={"description": "glossary: the term's translation."})
    forbidden = fields.Boolean(metadata={"description": "glossary: true for a translation not to use."})
    note = fields.String(metadata={"description": "glossary: the term's note."})


class SuggestionErrorOut(ApiSchema):
    provider = fields.String(required=True)
    providerId = fields.String(required=True)
    error = fields.String(required=True)


class SuggestionsOut(ApiSchema):
    suggestions = fields.List(fields.Nested(SuggestionOut), required=True)
    errors = fields.List(
        fields.Nested(SuggestionErrorOut),
        required=True,
        metadata={
            "description": "Providers that failed, or whose answer was refused because it lost, "
            "repeated or invented a placeholder."
        },
    )


# Pre-translation

MAX_PRETRANSLATE_LANGUAGES = 100
MAX_PRETRANSLATE_FILES = 1000
DEFAULT_MIN_SCORE = 100


class PretranslateMemory(ApiSchema):
    minScore = fields.Integer(
        load_default=DEFAULT_MIN_SCORE,
        validate=validate.Range(min=1, max=100),
        metadata={
            "description": "The lowest score (1-100) of a memory match used; 100 (the default): "
            "exact matches only."
        },
    )


class PretranslateSources(ApiSchema):
    class Meta(ApiSchema.Meta):
        json_schema = {"minProperties": 1}  # the memory, a provider, or both

    memory = fields.Nested(
        PretranslateMemory,
        metadata={
            "description": "Fill from the organization's translation memory (its best match for each text)."
        },
    )
    provider = fields.String(
        validate=[validate.Length(min=1, max=64), no_control_characters],
        metadata={"description": "Fill with this machine translation provider of the organization (its id)."},
    )


class PretranslateFilter(ApiSchema):
    search = fields.String(
        validate=[validate.Length(min=1, max=256), no_control_characters],
        metadata={"description": "As the editor's search: keys whose key or a value contains this text."},
    )
    changedSince = fields.Date(
        metadata={"description": "As the editor's filter: keys changed on or after this day (UTC)."}
    )
    tags = fields.List(
        TagName(),
        validate=validate.Length(max=MAX_TAGS),
        metadata={"description": "Only keys with every one of these tags."},
    )
    excludeTags = fields.List(
        TagName(),
        validate=validate.Length(max=MAX_TAGS),
        metadata={"description": "Only keys with none of these tags."},
    )


class PretranslateIn(ApiSchema):
    languages = fields.List(
        LanguageCode(),
        required=True,
        validate=validate.Length(min=1, max=MAX_PRETRANSLATE_LANGUAGES),
        metadata={"description": "The languages to fill (never the source language)."},
    )
    files = fields.List(
        FileName(),
        validate=validate.Length(max=MAX_PRETRANSLATE_FILES),
        metadata={"description": "Only these files (default: every file)."},
    )
    filter = fields.Nested(PretranslateFilter, metadata={"description": "Only the keys this filter finds."})
    sources = fields.Nested(
        PretranslateSources,
        required=True,
        metadata={
            "description": "The memory, a provider, or both (the memory first, the provider for the rest)."
        },
    )
    dryRun = fields.Boolean(
        load_default=False,
        metadata={"description": "Answer what would be filled and what the provider would be asked; no job."},
    )
    asProposals = fields.Boolean(
        load_default=False,
        metadata={
            "description": "Write proposals (origin memory or machine) for a reviewer to accept, not "
            "values; needs the right to propose in each language (a language in the propose mode too)."
        },
    )


class PretranslateLanguageEstimate(ApiSchema):
    language = fields.String(required=True)
    missing = fields.Integer(required=True, metadata={"description": "Values missing (no value, or empty)."})
    fromMemory = fields.Integer(required=True, metadata={"description": "Of those, filled from the memory."})
    toProvider = fields.Integer(required=True, metadata={"description": "Of those, asked of the provider."})
    notSent = fields.Integer(
        required=True,
        metadata={"description": "Of those, ICU plural or select messages: never sent to the provider."},
    )
    providerTexts = fields.Integer(
        required=True,
        metadata={
            "description": "Texts sent to the provider: each distinct text once, but a key sent "
            "with its screenshot, which goes alone."
        },
    )
    providerCharacters = fields.Integer(required=True, metadata={"description": "Their characters."})
    providerRequests = fields.Integer(required=True, metadata={"description": "Requests it takes."})
    providerImages = fields.Integer(
        required=True,
        metadata={
            "description": "Screenshots sent, to a provider that sees images: one per key on an active "
            "screenshot, each in a request of its own, about 85 tokens each (detail low)."
        },
    )


class PretranslateEstimate(PretranslateLanguageEstimate):
    language = None
    dryRun = fields.Boolean(required=True)
    languages = fields.List(fields.Nested(PretranslateLanguageEstimate), required=True)


class PretranslateNotWritten(ApiSchema):
    """A value a pre-translation did not write, and why."""

    translationId = fields.String(required=True)
    fileName = fields.String(required=True)
    key = fields.String(required=True)
    language = fields.String(required=True)
    outcome = fields.String(
        required=True,
        metadata={
            "enum": ["refused", "refusedByChecks", "failed", "skipped", "notSent"],
            "description": "The report's count it is in.",
        },
    )
    reason = fields.String(required=True)


class PretranslateAsked(ApiSchema):
    """What the job was asked."""

    languages = fields.List(fields.String(), required=True)
    files = fields.List(fields.String(), required=True, metadata={"description": "Empty: every file."})
    provider = fields.String(required=True, allow_none=True, metadata={"description": "Its name."})
    memory = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The memory's minimum score; null: not asked."},
    )


class PretranslateReport(ApiSchema):
    """The job's result once it succeeded; each missing value is counted once."""

    missing = fields.Integer(required=True)
    filled = fields.Integer(
        required=True, metadata={"description": "Values written: fromMemory + fromProvider."}
    )
    fromMemory = fields.Integer(required=True)
    fromProvider = fields.Integer(required=True)
    refused = fields.Integer(
        required=True,
        metadata={"description": "Results whose placeholders differed from the source's: not written."},
    )
    refusedByChecks = fields.Integer(
        required=True, metadata={"description": "Results a check at `refuse` refused."}
    )
    failed = fields.Integer(
        required=True, metadata={"description": "Values whose request to the provider failed."}
    )
    skipped = fields.Integer(
        required=True, metadata={"description": "Values written by someone else meanwhile: kept."}
    )
    unmatched = fields.Integer(
        required=True, metadata={"description": "No memory match and no provider asked."}
    )
    notSent = fields.Integer(
        required=True,
        metadata={
            "description": "ICU plural or select messages, never sent to the provider (their "
            "branches follow the target language's plural rules): translate them by hand."
        },
    )
    proposed = fields.Integer(
        metadata={
            "description": "Proposals made instead of values: all of them with asProposals, else "
            "the empty reviewed values a project protecting reviewed values keeps."
        }
    )
    operationId = fields.String(
        required=True, allow_none=True, metadata={"description": "The operation to undo it all as one."}
    )
    errors = fields.List(
        fields.String(), required=True, metadata={"description": "The first errors and refusals."}
    )
    notWritten = fields.List(
        fields.Nested(PretranslateNotWritten),
        required=True,
        metadata={"description": "Each value not written, the first 1,000."},
    )
    notWrittenTruncated = fields.Boolean(
        required=True, metadata={"description": "Whether more values than those listed were not written."}
    )
    request = fields.Nested(PretranslateAsked, required=True)


class PretranslateStarted(ApiSchema):
    """What the MCP tool answers: the job queued, or with ``dryRun`` the estimate."""

    dryRun = fields.Boolean(required=True)
    job = fields.Nested(JobOut, metadata={"description": "The job queued (not on a dry run)."})
    estimate = fields.Nested(
        PretranslateEstimate, metadata={"description": "On a dry run: what it would do."}
    )
