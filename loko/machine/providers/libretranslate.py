"""LibreTranslate: ``POST /translate`` with ``q`` (a list of texts), ``source``, ``target``,
``format`` and, when the instance requires one, ``api_key`` in the body.

Texts go in the plain text format with the placeholders as ``⟦n⟧``: the HTML format re-writes
markup and unescapes its answer, so the tokens would not come back as sent. LibreTranslate
takes no context.
"""

from loko.machine.providers.base import Provider

PUBLIC_URL = "https://libretranslate.com"


def language_code(language: str) -> str:
    """LibreTranslate's code: the base language, but ``zh-Hans``/``zh-Hant`` and ``pt-BR`` as
    it names them."""
    code = language.replace("_", "-")
    special = {"zh-hans": "zh", "zh-cn": "zh", "zh-hant": "zt", "zh-tw": "zt", "pt-br": "pb"}
    return special.get(code.lower(), code.split("-")[0].lower())


class LibreTranslate(Provider):
    kind = "libretranslate"
    label = "LibreTranslate"
    mask_style = "brackets"
    batch_size = 25
    default_base_url = PUBLIC_URL

    def translate_batch(self, texts, source_lang, target_lang, context):
        body = {
            "q": texts,
            "source": language_code(source_lang),
            "target": language_code(target_lang),
            "format": "text",
        }
        if self.settings.api_key:
            body["api_key"] = self.settings.api_key
        data = self.send("/translate", body)
        translated = data.get("translatedText") if isinstance(data, dict) else None
        if not isinstance(translated, list) or not all(isinstance(text, str) for text in translated):
            raise self.bad_answer("without a list of translated texts")
        return translated
