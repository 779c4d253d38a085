"""The three providers against their stand-ins: placeholders kept, batches, 429 and
Retry-After, refused keys, timeouts, refused addresses, and answers that lose or invent a
placeholder refused."""

import re

import pytest

from loko import outbound
from loko.machine.masking import MaskingError
from loko.machine.providers import DeepL, OpenAICompatible
from loko.machine.providers.base import MAX_RETRIES, ProviderError, Settings
from tests.machine.conftest import provider
from tests.machine.standins import API_KEY

SOURCE = "Hello {name}, <b>you</b> have %d new messages & more at https://example.org/inbox."
TOKENS = re.compile(r'<x id="\d+"/>|⟦\d+⟧')


def test_translation_keeps_every_placeholder(service, http):
    [result] = provider(service, http).translate([SOURCE], "en", "de", "Key: inbox.summary")
    assert result.endswith(SOURCE)
    assert result != SOURCE  # the stand-in marked it translated


def test_placeholders_reach_the_provider_as_tokens(service, http):
    provider(service, http).translate([SOURCE], "en", "de")
    [sent] = service.texts_of(service.calls[0]["body"])
    assert "{name}" not in sent and "%d" not in sent and "https://example.org" not in sent
    assert len(TOKENS.findall(sent)) == 5


BATCHES_OF_60 = {"deepl": 2, "libretranslate": 3, "openai": 3}


@pytest.mark.parametrize(("count", "requests"), [(1, 1), (60, BATCHES_OF_60)])
def test_texts_go_in_batches(service, http, count, requests):
    texts = [f"Text {number}" for number in range(count)]
    results = provider(service, http).translate(texts, "en", "fr")
    assert [result.endswith(text) for result, text in zip(results, texts, strict=True)] == [True] * count
    expected = requests if isinstance(requests, int) else requests[service.name]
    assert len(service.calls) == expected


def test_a_429_is_waited_out_as_retry_after_says(service, http, waits):
    service.fail_next(429, headers={"Retry-After": "3"})
    [result] = provider(service, http).translate(["Hello"], "en", "de")
    assert result.endswith("Hello")
    assert waits == [3.0]
    assert len(service.calls) == 2


def test_a_429_that_lasts_ends_in_a_clear_error(service, http, waits):
    for _ in range(MAX_RETRIES + 1):
        service.fail_next(429, headers={"Retry-After": "1"})
    with pytest.raises(ProviderError) as raised:
        provider(service, http).translate(["Hello"], "en", "de")
    assert raised.value.problem == "rate_limited"
    assert "429" in raised.value.message and "try again later" in raised.value.message
    assert waits == [1.0] * MAX_RETRIES


def test_a_long_retry_after_is_not_waited(service, http, waits):
    service.fail_next(429, headers={"Retry-After": "3600"})
    with pytest.raises(ProviderError, match="429"):
        provider(service, http).translate(["Hello"], "en", "de")
    assert waits == []


def test_a_wrong_key_is_refused_without_echoing_it(service, http):
    with pytest.raises(ProviderError) as raised:
        provider(service, http, api_key="wrong-key-1234").translate(["Hello"], "en", "de")
    assert raised.value.problem == "unauthorized"
    assert raised.value.status in (401, 403)
    assert "wrong-key-1234" not in raised.value.message


def test_a_key_the_provider_echoes_is_scrubbed(service, http):
    service.fail_next(403, body=service.error_body(f"the key {API_KEY} may not do this"))
    with pytest.raises(ProviderError) as raised:
        provider(service, http).translate(["Hello"], "en", "de")
    assert API_KEY not in raised.value.message
    assert "[key]" in raised.value.message


def test_a_provider_that_does_not_answer_times_out(service, http, monkeypatch):
    monkeypatch.setattr(outbound, "REQUEST_DEADLINE", 0.3)
    service.stall()
    with pytest.raises(ProviderError) as raised:
        provider(service, http).translate(["Hello"], "en", "de")
    assert raised.value.problem == "unavailable"
    assert "in time" in raised.value.message


def test_a_dropped_placeholder_is_refused(service, http):
    service.translator = lambda text, target: TOKENS.sub("", text)
    with pytest.raises(MaskingError, match="lost placeholder"):
        provider(service, http).translate(["Hello {name}"], "en", "de")


def test_an_invented_token_is_refused(service, http):
    extra = '<x id="7"/>' if service.name == "deepl" else "⟦7⟧"
    service.translator = lambda text, target: f"{text} {extra}"
    with pytest.raises(MaskingError, match="not in the text"):
        provider(service, http).translate(["Hello {name}"], "en", "de")


def test_a_repeated_token_is_refused(service, http):
    service.translator = lambda text, target: f"{text} {text}"
    with pytest.raises(MaskingError, match="repeated"):
        provider(service, http).translate(["Hello {name}"], "en", "de")


def test_a_placeholder_written_out_by_the_provider_is_refused(service, http):
    service.translator = lambda text, target: f"{text} {{user}}"
    with pytest.raises(MaskingError, match=r"added \{user\}"):
        provider(service, http).translate(["Hello {name}"], "en", "de")


def test_one_refused_text_does_not_cost_the_others(service, http):
    service.translator = lambda text, target: "Oops" if TOKENS.search(text) else f"[{target}] {text}"
    results = provider(service, http).translate_each(["Hello {name}", "Goodbye"], "en", "de")
    assert isinstance(results[0], MaskingError)
    assert results[1].endswith("Goodbye")


PLURAL = "You have {count, plural, one {# file} other {# files}} in {folder}."


def translated(service, http, text: str, target: str) -> str:
    """The provider's translation, its stand-in's language mark in lower case (DeepL's
    target codes are upper case)."""
    [result] = provider(service, http).translate([text], "en", target)
    return re.sub(r"\[(\w+)\]", lambda mark: f"[{mark.group(1).lower()}]", result)


def test_a_plural_goes_as_one_whole_sentence_per_branch_its_arguments_masked(service, http):
    provider(service, http).translate([PLURAL], "en", "de")
    sent = [text for call in service.calls for text in service.texts_of(call["body"])]
    assert len(sent) == 2
    assert all(
        text.startswith("You have ") and text.endswith(" in " + text.split(" in ")[1]) for text in sent
    )
    assert not any("plural" in text or "#" in text or "{" in text for text in sent)
    assert [len(TOKENS.findall(text)) for text in sent] == [2, 2]


def test_a_plural_comes_back_with_its_arguments_intact(service, http):
    assert translated(service, http, PLURAL, "de") == (
        "{count, plural, one {[de] You have # file in {folder}.} other {[de] You have # files in {folder}.}}"
    )


def test_a_plural_comes_back_in_the_target_languages_forms(service, http):
    result = translated(service, http, PLURAL, "ar")
    other = "[ar] You have # files in {folder}."
    assert result == (
        f"{{count, plural, zero {{{other}}} one {{[ar] You have # file in {{folder}}.}} two {{{other}}} "
        f"few {{{other}}} many {{{other}}} other {{{other}}}}}"
    )


def test_a_select_keeps_its_keys(service, http):
    message = "{gender, select, female {She replied} other {They replied}}"
    assert (
        translated(service, http, message, "fr")
        == "{gender, select, female {[fr] She replied} other {[fr] They replied}}"
    )


def test_two_plurals_side_by_side_are_refused_before_anything_is_sent(service, http):
    message = "{a, plural, one {# file} other {# files}} in {b, plural, one {# folder} other {# folders}}"
    with pytest.raises(MaskingError, match="#"):
        provider(service, http).translate([message], "en", "de")
    assert service.calls == []


def test_a_private_address_is_refused_unless_allowed(service):
    https = service.url.replace("http://", "https://")
    with outbound.http_client(allow_private=False) as guarded, pytest.raises(ProviderError) as raised:
        provider(service, guarded, base_url=https).translate(["Hello"], "en", "de")
    assert raised.value.problem == "refused"
    assert "LOKO_OUTBOUND_ALLOW_PRIVATE" in raised.value.message
    assert service.calls == []


def test_deepl_picks_the_free_or_pro_host_by_the_key(http):
    assert DeepL(Settings(api_key="abc:fx"), http).base_url == "https://api-free.deepl.com"
    assert DeepL(Settings(api_key="abc"), http).base_url == "https://api.deepl.com"
    assert (
        DeepL(Settings(api_key="abc", base_url="https://deepl.example/"), http).base_url
        == "https://deepl.example"
    )


def test_deepl_is_sent_the_context_and_regional_target(http):
    from tests.machine.conftest import stand_in

    with stand_in("deepl") as deepl:
        provider(deepl, http).translate(["Hello"], "en-US", "en-GB", "Key: greeting")
        provider(deepl, http).translate(["Hello"], "de", "en")
    first, second = (call["body"] for call in deepl.calls)
    assert (first["source_lang"], first["target_lang"], first["context"]) == ("EN", "EN-GB", "Key: greeting")
    assert second["target_lang"] == "EN-US"
    assert deepl.calls[0]["headers"]["Authorization"] == f"DeepL-Auth-Key {API_KEY}"


def test_the_language_model_is_told_the_rules_and_the_instruction(http):
    from tests.machine.conftest import stand_in

    with stand_in("openai") as model:
        provider(model, http, instruction="Use the informal du.").translate(["Hello"], "en", "de")
    system = model.calls[0]["body"]["messages"][0]["content"]
    assert "⟦0⟧" in system and system.endswith("Use the informal du.")
    assert model.calls[0]["body"]["model"] == "llama3.1"


def test_a_language_model_answer_in_a_code_fence_is_read(http):
    from tests.machine.conftest import stand_in

    with stand_in("openai") as model:
        model.reply = lambda body: '```json\n{"translations": ["Hallo ⟦0⟧"]}\n```'
        assert provider(model, http).translate(["Hello {name}"], "en", "de") == ["Hallo {name}"]


def test_a_language_model_answer_that_is_not_json_is_a_clear_error(http):
    from tests.machine.conftest import stand_in

    with stand_in("openai") as model:
        model.reply = lambda body: "Sure! Here is the translation: Hallo"
        with pytest.raises(ProviderError, match="not the JSON object"):
            provider(model, http).translate(["Hello"], "en", "de")


def test_a_language_model_without_a_model_is_a_clear_error(http):
    with pytest.raises(ProviderError, match="names no model"):
        OpenAICompatible(Settings(base_url="http://127.0.0.1:9"), http).translate(["Hello"], "en", "de")
