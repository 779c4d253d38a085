"""An OpenAI-compatible chat API: ``POST {base}/chat/completions`` with a model and messages
(OpenAI, and Ollama, vLLM or LiteLLM under their ``/v1``), the key (when one is set) as a
bearer token.

A batch is one request: the system message tells the model its task and the rules of the
placeholder tokens (``⟦n⟧``, see ``masking``), then the organization's and the language's
instructions; the user message is a JSON object with the context and the texts, and the model
answers a JSON object with one translation per text. An answer that is not that object is a
``ProviderError``; one whose tokens are wrong is refused by the masking.
"""

import json
import re

from loko.machine.providers.base import Provider, ProviderError

PUBLIC_URL = "https://api.openai.com/v1"
TASK = (
    "You translate the user interface strings of a software product from the language "
    "{source} to the language {target} (BCP 47 codes). The user message is a JSON object: "
    '"texts" is the list of strings to translate, "context" tells where they appear. Answer '
    'with only a JSON object {{"translations": [...]}} holding one translation per text, in '
    "the same order, and nothing else. Tokens such as ⟦0⟧ stand for placeholders and markup "
    "the program fills in: copy every token of a text into its translation exactly once, "
    "unchanged, where it belongs in the sentence; never translate, renumber, add or drop a "
    "token. Keep leading and trailing spaces and line breaks as they are."
)
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


class OpenAICompatible(Provider):
    kind = "openai"
    label = "The language model"
    mask_style = "brackets"
    batch_size = 20
    default_base_url = PUBLIC_URL

    def request_headers(self) -> dict[str, str]:
        key = self.settings.api_key
        return {"Authorization": f"Bearer {key}"} if key else {}

    def system_message(self, source_lang: str, target_lang: str) -> str:
        parts = [TASK.format(source=source_lang, target=target_lang)]
        if self.settings.instruction:
            parts.append(self.settings.instruction.strip())
        return "\n\n".join(parts)

    def translate_batch(self, texts, source_lang, target_lang, context):
        if not self.settings.model:
            raise ProviderError("the language model provider names no model", None, "refused")
        request = json.dumps({"context": context or "", "texts": texts}, ensure_ascii=False)
        content: str | list = request
        if self.settings.image_url:
            # The key's screenshot as an image part: the context says where the key is on it.
            content = [
                {"type": "text", "text": request},
                {"type": "image_url", "image_url": {"url": self.settings.image_url, "detail": "low"}},
            ]
        body = {
            "model": self.settings.model,
            "messages": [
                {"role": "system", "content": self.system_message(source_lang, target_lang)},
                {"role": "user", "content": content},
            ],
            "temperature": 0,
        }
        data = self.send("/chat/completions", body)
        try:
            content = data["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            raise self.bad_answer("without a message") from None
        if not isinstance(content, str):
            raise self.bad_answer("without a message")
        fenced = _FENCE.match(content)
        try:
            answer = json.loads(fenced.group(1) if fenced else content)
        except ValueError:
            raise self.bad_answer("with a message that is not the JSON object asked for") from None
        translations = answer.get("translations") if isinstance(answer, dict) else None
        if not isinstance(translations, list) or not all(isinstance(text, str) for text in translations):
            raise self.bad_answer("without a list of translations")
        return translations
