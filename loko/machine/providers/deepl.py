"""DeepL API v2: ``POST /v2/translate`` with the key in ``Authorization: DeepL-Auth-Key``.

The public service has two hosts: keys of the free plan end in ``:fx`` and are served by
``api-free.deepl.com``, the others by ``api.deepl.com``; a configured base URL wins. Texts
go as XML (``tag_handling=xml``) with the placeholders as ``<x id="n"/>`` in ``ignore_tags``,
so DeepL keeps them untouched; ``context`` carries what the translator knows of the key.
"""

from loko.machine.providers.base import Provider, ProviderError

PRO_URL = "https://api.deepl.com"
FREE_URL = "https://api-free.deepl.com"
# DeepL asks for a regional variant of these target languages.
TARGET_DEFAULTS = {"EN": "EN-US", "PT": "PT-PT"}


def source_code(language: str) -> str:
    """DeepL's source language: the base language only (``en-US`` -> ``EN``)."""
    return language.split("-")[0].split("_")[0].upper()


def target_code(language: str) -> str:
    """DeepL's target language (``de`` -> ``DE``, ``en`` -> ``EN-US``, ``pt-BR`` -> ``PT-BR``,
    ``zh-Hans`` -> ``ZH-HANS``)."""
    code = language.replace("_", "-").upper()
    return TARGET_DEFAULTS.get(code, code)


class DeepL(Provider):
    kind = "deepl"
    label = "DeepL"
    mask_style = "xml"
    batch_size = 50  # DeepL's limit of texts per request

    def __init__(self, settings, http):
        super().__init__(settings, http)
        if not settings.base_url:
            free = (settings.api_key or "").endswith(":fx")
            self.base_url = FREE_URL if free else PRO_URL

    def request_headers(self) -> dict[str, str]:
        return {"Authorization": f"DeepL-Auth-Key {self.settings.api_key or ''}"}

    def translate_batch(self, texts, source_lang, target_lang, context):
        if not self.settings.api_key:
            raise ProviderError("DeepL needs an API key; none is set", None, "unauthorized")
        body = {
            "text": texts,
            "source_lang": source_code(source_lang),
            "target_lang": target_code(target_lang),
            "tag_handling": "xml",
            "ignore_tags": ["x"],
        }
        if context:
            body["context"] = context
        data = self.send("/v2/translate", body)
        translations = data.get("translations") if isinstance(data, dict) else None
        if not isinstance(translations, list) or not all(
            isinstance(item, dict) and isinstance(item.get("text"), str) for item in translations
        ):
            raise self.bad_answer("without a list of translations")
        return [item["text"] for item in translations]

    def refusal(self, response) -> ProviderError:
        if response.status_code == 456:
            return ProviderError("DeepL: the account's character quota is used up (456)", 456, "quota")
        return super().refusal(response)
