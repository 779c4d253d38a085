"""The machine translation providers behind ``base.Provider``, and the one place that picks
one by kind (``provider_for``)."""

from typing import TYPE_CHECKING

from loko.machine.providers.base import Provider, Settings
from loko.machine.providers.deepl import DeepL
from loko.machine.providers.libretranslate import LibreTranslate
from loko.machine.providers.openai import OpenAICompatible

if TYPE_CHECKING:
    import httpx

__all__ = ["PROVIDERS", "DeepL", "LibreTranslate", "OpenAICompatible", "Provider", "Settings", "provider_for"]

PROVIDERS: dict[str, type[Provider]] = {
    "deepl": DeepL,
    "libretranslate": LibreTranslate,
    "openai": OpenAICompatible,
}


def provider_for(kind: str, settings: Settings, http: "httpx.Client") -> Provider:
    """The provider of ``kind``; KeyError for a kind not in ``PROVIDERS``."""
    return PROVIDERS[kind](settings, http)
