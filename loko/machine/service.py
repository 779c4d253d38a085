"""Machine translation: an organization's providers (configured by its owners and admins) and
the suggestions they make for a project's keys.

Every provider call goes out through the guarded client of ``loko.outbound`` (timeouts, the
private-address check unless the administrator allows it) and never inside a database
transaction: what the call needs is read first, the read transaction is ended, then the
provider is called. The API key is kept encrypted (``loko.secrets``); it is decrypted only
for the call, never answered (``hasKey`` and its last four characters are) and never logged.
"""

import logging
from dataclasses import dataclass

import orjson
from flask import current_app
from sqlalchemy import select

from loko.audit import service as audit
from loko.auth import policy
from loko.database import unit_of_work, utcnow
from loko.errors import Conflict, NotFound
from loko.extensions import db
from loko.machine.models import MachineProvider
from loko.memory.service import suggestions_for as memory_suggestions
from loko.screenshots import service as screenshots
from loko.secrets import UnreadableSecret
from loko.translations.models import Translation, TranslationValue

log = logging.getLogger(__name__)

PROVIDER_NOT_FOUND = "Machine translation provider not found."
TEST_TEXT = "Hello {name}"
KIND_LABELS = {"deepl": "DeepL", "libretranslate": "LibreTranslate", "openai": "OpenAI-compatible"}


@dataclass(frozen=True)
class ProviderCall:
    """What one call to one provider needs, read before the call: no ORM object crosses it."""

    id: str
    name: str
    kind: str
    base_url: str | None
    model: str | None
    api_key: str | None
    instruction: str
    sees_images: bool = False


# The outbound client and cryptography load on the first call or configuration.


def _outbound():
    from loko import outbound

    return outbound


def _secrets():
    from loko import secrets

    return secrets


def _secret_key() -> str:
    return current_app.config["LOKO_SECRET_KEY"]


def describe(row: MachineProvider) -> dict:
    return {
        "id": row.id,
        "kind": row.kind,
        "name": row.name,
        "baseUrl": row.base_url,
        "model": row.model,
        "hasKey": row.api_key_encrypted is not None,
        "keyLast4": row.api_key_last4,
        "instruction": row.instruction,
        "languageInstructions": orjson.loads(row.language_instructions),
        "enabled": row.enabled,
        "seesImages": row.sees_images,
        "createdAt": row.created_at,
        "updatedAt": row.updated_at,
    }


def _provider(organization_id: str, provider_id: str) -> MachineProvider:
    row = db.session.get(MachineProvider, provider_id)
    if row is None or row.organization_id != organization_id:
        raise NotFound(PROVIDER_NOT_FOUND)
    return row


provider_of = _provider


def _set_key(row: MachineProvider, api_key: str | None) -> None:
    if api_key:
        row.api_key_encrypted = _secrets().encrypt(_secret_key(), api_key)
        row.api_key_last4 = api_key[-4:] if len(api_key) >= 8 else None
    else:
        row.api_key_encrypted, row.api_key_last4 = None, None


def list_providers(actor, organization_id: str) -> list[dict]:
    """The organization's providers; NotFound for non-members, Forbidden below admin."""
    policy.require_organization_permission(actor, organization_id, policy.MANAGE_MACHINE)
    rows = db.session.scalars(
        select(MachineProvider)
        .where(MachineProvider.organization_id == organization_id)
        .order_by(MachineProvider.created_at, MachineProvider.id)
    )
    return [describe(row) for row in rows]


def create_provider(actor, organization_id: str, data: dict) -> dict:
    """A new provider. What a kind needs (DeepL a key, an OpenAI-compatible API a model) is
    not refused here: the setup check and every call say what is missing."""
    with unit_of_work():
        policy.require_organization_permission(actor, organization_id, policy.MANAGE_MACHINE)
        now = utcnow()
        row = MachineProvider(
            organization_id=organization_id,
            kind=data["kind"],
            name=data.get("name") or KIND_LABELS[data["kind"]],
            base_url=data.get("baseUrl"),
            model=data.get("model"),
            instruction=data.get("instruction") or "",
            language_instructions=orjson.dumps(data.get("languageInstructions") or {}).decode(),
            enabled=data.get("enabled", True),
            sees_images=_sees_images(data["kind"], data.get("seesImages", False)),
            created_at=now,
            updated_at=now,
        )
        _set_key(row, data.get("apiKey"))
        db.session.add(row)
        db.session.flush()
        audit.record(actor, organization_id, "machine_provider.created", _target(row), _audit_details(row))
        return describe(row)


def _sees_images(kind: str, sees: bool) -> bool:
    """Only a language model (``openai``) is sent images: the flag is kept for it alone."""
    return sees and kind == "openai"


def _target(row: MachineProvider) -> audit.Target:
    return audit.Target("machine_provider", row.id, row.name)


def _audit_details(row: MachineProvider, changed=None) -> dict:
    """What the audit log keeps of a provider: never its key, only whether it has one."""
    details = {"kind": row.kind, "baseUrl": audit.safe_url(row.base_url), "model": row.model}
    details |= {"enabled": row.enabled, "hasKey": row.api_key_encrypted is not None}
    return details | ({"fields": sorted(changed)} if changed is not None else {})


def update_provider(actor, organization_id: str, provider_id: str, data: dict) -> dict:
    """Change a provider's fields (``apiKey``: a new key, or null or empty to remove it)."""
    with unit_of_work():
        policy.require_organization_permission(actor, organization_id, policy.MANAGE_MACHINE)
        row = _provider(organization_id, provider_id)
        for field, column in (("name", "name"), ("baseUrl", "base_url"), ("model", "model")):
            if field in data:
                setattr(row, column, data[field])
        if "instruction" in data:
            row.instruction = data["instruction"] or ""
        if "languageInstructions" in data:
            row.language_instructions = orjson.dumps(data["languageInstructions"] or {}).decode()
        if "enabled" in data:
            row.enabled = data["enabled"]
        if "seesImages" in data:
            row.sees_images = _sees_images(row.kind, data["seesImages"])
        if "apiKey" in data:
            _set_key(row, data["apiKey"])
        row.updated_at = utcnow()
        audit.record(
            actor, organization_id, "machine_provider.updated", _target(row), _audit_details(row, data)
        )
        return describe(row)


def delete_provider(actor, organization_id: str, provider_id: str) -> None:
    with unit_of_work():
        policy.require_organization_permission(actor, organization_id, policy.MANAGE_MACHINE)
        row = _provider(organization_id, provider_id)
        audit.record(actor, organization_id, "machine_provider.deleted", _target(row), _audit_details(row))
        db.session.delete(row)


def _call_of(row: MachineProvider, language: str | None) -> ProviderCall:
    instructions = orjson.loads(row.language_instructions)
    parts = [row.instruction.strip(), (instructions.get(language) or "").strip() if language else ""]
    api_key = None
    if row.api_key_encrypted is not None:
        api_key = _secrets().decrypt(
            _secret_key(), row.api_key_encrypted, what=f"the API key of the provider {row.name}"
        )
    return ProviderCall(
        id=row.id,
        name=row.name,
        kind=row.kind,
        base_url=row.base_url,
        model=row.model,
        api_key=api_key,
        instruction="\n\n".join(part for part in parts if part),
        sees_images=row.sees_images,
    )


call_of = _call_of


def outbound_allowed(config) -> bool:
    """Whether provider calls may reach private addresses (read before leaving the app's
    context, for calls made on worker threads)."""
    return _outbound().allow_private(config)


def translate_each(
    call: ProviderCall,
    texts: list[str],
    source: str,
    target: str,
    allow_private: bool,
    context: str | None = None,
    image: str | None = None,
):
    """``texts`` translated in one request (no application context needed: for worker
    threads), with ``context`` and, when the provider sees images, ``image`` (a data URL);
    a MaskingError in place of each refused result; ProviderError."""
    from loko.machine.providers import provider_for
    from loko.machine.providers.base import Settings

    settings = Settings(
        base_url=call.base_url,
        api_key=call.api_key,
        model=call.model,
        instruction=call.instruction,
        image_url=image if call.sees_images else None,
    )
    with _outbound().http_client(allow_private) as http:
        return provider_for(call.kind, settings, http).translate_each(texts, source, target, context)


def translate(
    call: ProviderCall,
    texts: list[str],
    source: str,
    target: str,
    context: str | None,
    image: str | None = None,
):
    """``texts`` translated by the provider of ``call``, placeholders kept (outside any
    transaction), with ``image`` (a data URL) when the provider sees images; ProviderError,
    MaskingError."""
    from loko.machine.providers import provider_for
    from loko.machine.providers.base import Settings

    outbound = _outbound()
    settings = Settings(
        base_url=call.base_url,
        api_key=call.api_key,
        model=call.model,
        instruction=call.instruction,
        image_url=image if call.sees_images else None,
    )
    with outbound.http_client(outbound.allow_private(current_app.config)) as http:
        return provider_for(call.kind, settings, http).translate(texts, source, target, context)


def _attempt(
    call: ProviderCall, texts, source, target, context, image: str | None = None
) -> tuple[list[str] | None, str | None]:
    """``(translations, None)`` or ``(None, what went wrong)``; the failure is logged."""
    from loko.machine.masking import MaskingError
    from loko.machine.providers.base import ProviderError

    try:
        return translate(call, texts, source, target, context, image), None
    except ProviderError as error:
        log.warning("machine translation by %s (%s) failed: %s", call.name, call.kind, error.message)
        return None, error.message
    except MaskingError as error:
        log.warning("machine translation by %s (%s) refused: %s", call.name, call.kind, error.message)
        return None, f"refused: {error.message}"


def check_provider(actor, organization_id: str, provider_id: str) -> dict:
    """Translate ``Hello {name}`` from English to German with the provider, to check its
    setup: ``{ok, source, text, error}``."""
    policy.require_organization_permission(actor, organization_id, policy.MANAGE_MACHINE)
    call = _call_of(_provider(organization_id, provider_id), "de")
    db.session.rollback()  # no transaction stays open while the provider is called
    texts, error = _attempt(call, [TEST_TEXT], "en", "de", "A greeting shown after signing in.")
    return {"ok": error is None, "source": TEST_TEXT, "text": texts[0] if texts else None, "error": error}


def _context(row: Translation, source_language: str, glossary: list[dict] = ()) -> str:
    """What LLM providers are told of the key; of the glossary, only the terms found in its
    source text (``glossary``, as ``loko.glossary.service.terms_in_source``)."""
    from loko.glossary.service import context_lines

    lines = [f"Key: {row.key}", f"File: {row.file_name}", f"Source language: {source_language}"]
    if row.comment:
        lines.append(f"Comment: {row.comment}")
    if row.context:
        lines.append(f"Context: {row.context}")
    lines += context_lines(list(glossary))
    return "\n".join(lines)


def suggest(actor, project_id: str, file_name: str, key: str, language: str) -> dict:
    """Machine suggestions for one key in ``language`` from each enabled provider of the
    project's organization: ``{suggestions, errors}``. NotFound for a missing key, Conflict
    when the stored data leave nothing to translate (no source language or text, or
    ``language`` is the source language); Forbidden for a language the caller may not edit."""
    project, permissions = policy.authorize(actor, project_id, policy.SUGGEST_TRANSLATIONS)
    policy.require_languages(permissions, [language])
    source_language = project.source_language
    if source_language is None:
        raise Conflict("language: the project has no source language to translate from.")
    if language == source_language:
        raise Conflict(f"language: {language} is the project's source language.")
    row = db.session.execute(
        select(Translation).where(
            Translation.project_id == project_id,
            Translation.file_name == file_name,
            Translation.key == key,
            Translation.deleted_at.is_(None),
        )
    ).scalar_one_or_none()
    if row is None:
        raise NotFound("Translation not found.")
    source = db.session.execute(
        select(TranslationValue.value).where(
            TranslationValue.translation_id == row.id, TranslationValue.language_code == source_language
        )
    ).scalar_one_or_none()
    if not source:
        raise Conflict(f"key: {key} has no text in the source language {source_language} to translate.")
    from loko.glossary.service import suggestion_items, terms_in_source

    glossary = terms_in_source(project_id, source_language, source, language)
    context = _context(row, source_language, glossary)
    providers = db.session.scalars(
        select(MachineProvider)
        .where(MachineProvider.organization_id == project.organization_id, MachineProvider.enabled.is_(True))
        .order_by(MachineProvider.created_at, MachineProvider.id)
    ).all()
    # The memory's matches come first (a translation already made is worth more), then the
    # glossary's terms found in the source, then each provider's translation.
    suggestions = memory_suggestions(actor, project, row.id, source, language) + suggestion_items(glossary)
    errors, calls = [], []
    for provider in providers:
        try:
            calls.append(_call_of(provider, language))
        except UnreadableSecret as error:
            errors.append({"provider": provider.name, "providerId": provider.id, "error": error.message})
    picture = None
    if any(call.sees_images for call in calls):
        picture = screenshots.model_picture(project_id, row.id)
    db.session.rollback()  # no transaction stays open while the providers are called
    for call in calls:
        shown = picture if call.sees_images else None
        with_picture = context + "\n" + shown.note if shown is not None else context
        texts, error = _attempt(
            call, [source], source_language, language, with_picture, shown.data_url if shown else None
        )
        if error is None:
            suggestions.append(
                {
                    "source": "machine",
                    "provider": call.name,
                    "providerId": call.id,
                    "kind": call.kind,
                    "text": texts[0],
                }
            )
        else:
            errors.append({"provider": call.name, "providerId": call.id, "error": error})
    return {"suggestions": suggestions, "errors": errors}
