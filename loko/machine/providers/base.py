"""The interface every machine translation provider implements, and what they share.

A provider only implements ``translate_batch``: it receives texts already masked
(``loko.machine.masking``) and answers the provider's raw translations. ``translate`` (not to
be overridden) is the one way in: it masks, splits into batches, calls ``translate_batch``,
and unmasks and verifies every answer, so no provider can see or return an unmasked
placeholder. ``send`` is the one way out: a POST through the guarded outbound client, a 429
waited out as its ``Retry-After`` says (bounded), and every failure a ``ProviderError`` whose
message names the provider and never the key.
"""

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from loko.machine import choices, masking
from loko.machine.masking import MaskingError
from loko.outbound import OutboundError

if TYPE_CHECKING:
    import httpx

# A 429 is waited out at most this many times per request, each wait at most this long.
MAX_RETRIES = 2
MAX_RETRY_WAIT = 10.0
DEFAULT_RETRY_WAIT = 1.0
MESSAGE_LIMIT = 300


class ProviderError(Exception):
    """A provider refused or failed; ``message`` says what happened, for people, without the
    key. ``problem``: "unauthorized", "rate_limited", "quota", "unavailable", "refused"
    (the address, or a request the provider rejected), "bad_answer"."""

    def __init__(self, message: str, status: int | None = None, problem: str = "refused"):
        super().__init__(message)
        self.message, self.status, self.problem = message, status, problem


@dataclass(frozen=True)
class Settings:
    """What a provider needs: its base URL (None for the public service's), the key, the
    model (LLMs), the instruction (LLMs: the organization's, then the language's) and the
    picture that goes with the texts (LLMs that see images)."""

    base_url: str | None = None
    api_key: str | None = None
    model: str | None = None
    instruction: str | None = None
    # With a model that sees images: the screenshot of the texts' key, as a data URL.
    image_url: str | None = None


def sleep(seconds: float) -> None:
    """Waits out a 429; the tests replace it so that no test sleeps."""
    time.sleep(seconds)


class Provider(ABC):
    """One machine translation service reached through ``http`` (an ``httpx.Client`` made by
    ``outbound.http_client``: timeouts and the address check included)."""

    kind = ""
    label = ""
    mask_style: masking.Style = "brackets"
    batch_size = 50
    default_base_url = ""

    def __init__(self, settings: Settings, http: "httpx.Client"):
        self.settings, self.http = settings, http
        self.base_url = (settings.base_url or self.default_base_url).rstrip("/")

    def translate(
        self, texts: list[str], source_lang: str, target_lang: str, context: str | None = None
    ) -> list[str]:
        """Each text translated, its placeholders kept; ProviderError when the provider fails,
        MaskingError when a text cannot be masked or an answer lost or invented a placeholder."""
        results = self.translate_each(texts, source_lang, target_lang, context)
        for result in results:
            if isinstance(result, MaskingError):
                raise result
        return results  # type: ignore[return-value]

    def translate_each(
        self, texts: list[str], source_lang: str, target_lang: str, context: str | None = None
    ) -> list[str | MaskingError]:
        """As ``translate``, with a MaskingError in place of each text whose translation is
        refused, so that one bad text does not cost the others; ProviderError as there."""
        results: list[str | MaskingError | None] = [None] * len(texts)
        # A plural or select message goes as its branches' sentences (loko.machine.choices),
        # each masked on its own; its answers are put together again at the end.
        messages: dict[int, tuple[choices.Exploded, list[int]]] = {}
        masked: list[tuple[int, masking.Masked]] = []
        pieces: list[str | MaskingError | None] = []
        for index, text in enumerate(texts):
            try:
                exploded = choices.explode(text, target_lang)
                sentences = exploded.texts if exploded is not None else (text,)
                batch = [masking.mask(sentence, self.mask_style) for sentence in sentences]
            except MaskingError as error:
                results[index] = error
                continue
            slots = list(range(len(pieces), len(pieces) + len(batch)))
            pieces.extend([None] * len(batch))
            masked.extend(zip(slots, batch, strict=True))
            messages[index] = (exploded, slots)
        for start in range(0, len(masked), self.batch_size):
            batch = masked[start : start + self.batch_size]
            answers = self.translate_batch([m.text for _, m in batch], source_lang, target_lang, context)
            if len(answers) != len(batch):
                raise ProviderError(
                    f"{self.label} answered {len(answers)} translations for {len(batch)} texts",
                    problem="bad_answer",
                )
            for (slot, item), answer in zip(batch, answers, strict=True):
                try:
                    pieces[slot] = masking.unmask(item, answer)
                except MaskingError as error:
                    pieces[slot] = error
        for index, (exploded, slots) in messages.items():
            answers = [pieces[slot] for slot in slots]
            refused = next((answer for answer in answers if isinstance(answer, MaskingError)), None)
            if refused is not None:
                results[index] = refused
            else:
                results[index] = exploded.assemble(answers) if exploded is not None else answers[0]
        return results  # type: ignore[return-value]

    @abstractmethod
    def translate_batch(
        self, texts: list[str], source_lang: str, target_lang: str, context: str | None
    ) -> list[str]:
        """The provider's translations of ``texts`` (masked), in order; ProviderError."""

    # HTTP
    def request_headers(self) -> dict[str, str]:
        return {}

    def send(self, path: str, body: dict) -> Any:
        """The JSON answer to a POST of ``body`` to ``path`` under the base URL; a 429 is
        retried after its Retry-After (at most MAX_RETRIES times, each wait at most
        MAX_RETRY_WAIT); ProviderError for every failure."""
        import httpx  # loaded with the first call (loko.outbound)

        url = f"{self.base_url}{path}"
        for attempt in range(MAX_RETRIES + 1):
            try:
                response = self.http.post(
                    url, json=body, headers={"Accept": "application/json", **self.request_headers()}
                )
            except httpx.TimeoutException:
                raise ProviderError(f"{self.label} did not answer in time", None, "unavailable") from None
            except httpx.HTTPError as error:
                detail = self.scrub(str(error) or type(error).__name__)
                message = f"{self.label} could not be reached: {detail}"
                raise ProviderError(message, None, "unavailable") from None
            except OutboundError as error:
                raise ProviderError(f"{self.label}: {self.scrub(error.message)}", None, "refused") from None
            if response.status_code == 429:
                wait = _retry_after(response.headers.get("Retry-After"))
                if attempt < MAX_RETRIES and wait is not None and wait <= MAX_RETRY_WAIT:
                    sleep(wait)
                    continue
                raise ProviderError(
                    f"{self.label} is limiting requests (429 Too Many Requests); try again later",
                    429,
                    "rate_limited",
                )
            if not response.is_success:
                raise self.refusal(response)
            try:
                return response.json()
            except ValueError:
                raise ProviderError(
                    f"{self.label} answered {response.status_code} with a body that is not JSON",
                    response.status_code,
                    "bad_answer",
                ) from None
        raise AssertionError("unreachable")  # pragma: no cover

    def refusal(self, response: "httpx.Response") -> ProviderError:
        status = response.status_code
        said = self.scrub(_said(response))
        if status in (401, 403):
            return ProviderError(
                f"{self.label} refused the API key ({status}): {said}", status, "unauthorized"
            )
        if status >= 500:
            return ProviderError(f"{self.label} failed ({status}): {said}", status, "unavailable")
        return ProviderError(f"{self.label} answered {status}: {said}", status, "refused")

    def scrub(self, text: str) -> str:
        """``text`` without the key, whatever a provider or a library echoed."""
        key = self.settings.api_key
        return text.replace(key, "[key]") if key else text

    def bad_answer(self, what: str) -> ProviderError:
        return ProviderError(f"{self.label} answered {what}", 200, "bad_answer")


def _retry_after(value: str | None) -> float | None:
    """Seconds to wait from a Retry-After header (seconds only; a date is not waited for)."""
    if value is None:
        return DEFAULT_RETRY_WAIT
    try:
        seconds = float(value.strip())
    except ValueError:
        return None
    return max(seconds, 0.0)


def _said(response: "httpx.Response") -> str:
    try:
        data = response.json()
    except ValueError:
        return response.reason_phrase or "no explanation"
    message = None
    if isinstance(data, dict):
        message = data.get("message") or data.get("error") or data.get("detail")
        if isinstance(message, dict):  # OpenAI: {"error": {"message": ...}}
            message = message.get("message")
    if not isinstance(message, str) or not message:
        return response.reason_phrase or "no explanation"
    return message[:MESSAGE_LIMIT]
