"""Local stand-ins for DeepL, LibreTranslate and an OpenAI-compatible chat API: one threaded
``http.server`` each on 127.0.0.1, translating with a function the test may replace.

Every request and every response is checked against the service's published description
(``/work/shared/apis``: DeepL's OpenAPI 3.0 file, OpenAI's ``/chat/completions`` in OpenAPI
3.1; LibreTranslate's docstring transcribed in ``api_descriptions/libretranslate.json``): a
path or method it lacks, a body it does not allow, a status it does not list, a response
that breaks its schema. What does not match is collected in ``errors``, which the fixtures
assert empty, so a provider speaking the API wrong fails its test even when the stand-in
answered.

Knobs: ``translator(text, target) -> str`` (the default prefixes the target language and
keeps every token), ``fail_next(status, body, headers)`` (answers queued before the normal
one), ``stall()`` (the next request waits until the stand-in stops: a timeout), ``calls``
(every request: path, headers, JSON body).
"""

import json
import threading
from collections.abc import Callable
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft4Validator, Draft202012Validator

PUBLISHED = Path("/work/shared/apis")
LOCAL = Path(__file__).parent / "api_descriptions"
API_KEY = "mt-key-3f9c-never-echoed"


class Description:
    """One service's operations: request and response schemas, checked with jsonschema."""

    def __init__(self, document: dict, validator_class, error_schema: dict):
        self.document, self.validator_class, self.error_schema = document, validator_class, error_schema

    def _errors(self, schema: dict, instance: Any, what: str) -> list[str]:
        root = {"allOf": [schema], "components": self.document.get("components", {})}
        validator = self.validator_class(root)
        return [
            f"{what}: {'/'.join(map(str, error.absolute_path)) or '(top)'}: {error.message[:300]}"
            for error in validator.iter_errors(instance)
        ]

    def request_errors(self, path: str, body: Any) -> list[str]:
        raise NotImplementedError

    def response_errors(self, path: str, status: int, body: Any) -> list[str]:
        raise NotImplementedError


class OpenApi(Description):
    """An OpenAPI document (3.0 for DeepL, 3.1 for OpenAI)."""

    def _ref(self, node: dict) -> dict:
        while isinstance(node, dict) and "$ref" in node:
            target: Any = self.document
            for part in node["$ref"].removeprefix("#/").split("/"):
                target = target[part]
            node = target
        return node

    def _operation(self, path: str) -> dict | None:
        return self.document["paths"].get(path, {}).get("post")

    def request_errors(self, path: str, body: Any) -> list[str]:
        operation = self._operation(path)
        if operation is None:
            return [f"POST {path} is not in the description"]
        request_body = self._ref(operation["requestBody"])
        schema = request_body["content"]["application/json"]["schema"]
        return self._errors(schema, body, f"POST {path} body")

    def response_errors(self, path: str, status: int, body: Any) -> list[str]:
        operation = self._operation(path)
        responses = {str(code): value for code, value in operation["responses"].items()}
        response = responses.get(str(status))
        if response is None:
            if status in (401, 403, 500):  # a rejected key or a crash: any operation's answer
                return self._errors(self.error_schema, body, f"{status} response")
            return [f"status {status} is not in the description ({', '.join(responses)})"]
        content = self._ref(response).get("content", {}).get("application/json")
        return self._errors(content["schema"], body, f"{status} response") if content else []


class Transcribed(Description):
    """``api_descriptions/<name>.json``: per path, a request schema and response schemas."""

    def request_errors(self, path: str, body: Any) -> list[str]:
        operation = self.document["paths"].get(path, {}).get("post")
        if operation is None:
            return [f"POST {path} is not in the description"]
        return self._errors(operation["request"], body, f"POST {path} body")

    def response_errors(self, path: str, status: int, body: Any) -> list[str]:
        responses = self.document["paths"][path]["post"]["responses"]
        if str(status) not in responses:
            return [f"status {status} is not in the description ({', '.join(responses)})"]
        return self._errors(responses[str(status)], body, f"{status} response")


@cache
def deepl_description() -> OpenApi:
    document = yaml.safe_load((PUBLISHED / "deepl-openapi.yaml").read_text())
    return OpenApi(document, Draft4Validator, {"$ref": "#/components/schemas/ErrorResponse"})


@cache
def openai_description() -> OpenApi:
    document = json.loads((PUBLISHED / "openai-chat-completions.json").read_text())
    return OpenApi(document, Draft202012Validator, {"$ref": "#/components/schemas/ErrorResponse"})


@cache
def libretranslate_description() -> Transcribed:
    document = json.loads((LOCAL / "libretranslate.json").read_text())
    return Transcribed(document, Draft4Validator, {"$ref": "#/components/error-response"})


def pseudo_translation(text: str, target: str) -> str:
    """What the stand-ins answer by default: the text, marked with the target language."""
    return f"[{target}] {text}"


class StandIn:
    """A service on 127.0.0.1; subclasses speak its API."""

    name = ""
    prefix = ""  # the base URL's path, before the description's paths
    path = ""

    def __init__(self, api_key: str = API_KEY):
        self.api_key = api_key
        self.errors: list[str] = []
        self.calls: list[dict] = []
        self.translator: Callable[[str, str], str] = pseudo_translation
        self._queued: list[tuple[int, Any, dict]] = []
        self._stalled = False
        self._release = threading.Event()
        self._server: ThreadingHTTPServer | None = None

    def description(self) -> Description:
        raise NotImplementedError

    @property
    def url(self) -> str:
        """The base URL a provider is configured with."""
        return f"http://127.0.0.1:{self._server.server_address[1]}{self.prefix}"

    def fail_next(self, status: int, body: Any = None, headers: dict | None = None) -> None:
        self._queued.append((status, body if body is not None else self.error_body("refused"), headers or {}))

    def stall(self) -> None:
        self._stalled = True

    def start(self) -> "StandIn":
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                status, body, headers = stand_in.handle(self.path, self.headers, raw)
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *_args):
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self._release.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def handle(self, path: str, headers, raw: bytes) -> tuple[int, Any, dict]:
        try:
            body = json.loads(raw)
        except ValueError:
            self.errors.append(f"POST {path}: the body is not JSON")
            return 400, self.error_body("not JSON"), {}
        self.calls.append({"path": path, "headers": dict(headers), "body": body})
        if (headers.get("Content-Type") or "").split(";")[0] != "application/json":
            self.errors.append(f"POST {path}: Content-Type {headers.get('Content-Type')}")
        described = path.removeprefix(self.prefix)
        self.errors += self.description().request_errors(described, body)
        if self._stalled:
            self._release.wait(10)
            return 500, self.error_body("stalled"), {}
        if self._queued:
            status, answer, extra = self._queued.pop(0)
        elif path != self.path:
            status, answer, extra = 404, self.error_body("no such path"), {}
        elif not self.authorized(headers, body):
            status, answer, extra = self.unauthorized_status, self.error_body("Invalid API key"), {}
        else:
            status, answer, extra = 200, self.answer(body), {}
        self.errors += self.description().response_errors(self.path.removeprefix(self.prefix), status, answer)
        return status, answer, extra

    unauthorized_status = 403

    def authorized(self, headers, body) -> bool:
        raise NotImplementedError

    def answer(self, body: dict) -> Any:
        raise NotImplementedError

    def error_body(self, message: str) -> Any:
        return {"message": message}

    def texts_of(self, body: dict) -> list[str]:
        """The texts a request asked to translate."""
        raise NotImplementedError


class DeepLStandIn(StandIn):
    name = "deepl"
    path = "/v2/translate"

    def texts_of(self, body):
        return body["text"]

    def description(self):
        return deepl_description()

    def authorized(self, headers, body) -> bool:
        return headers.get("Authorization") == f"DeepL-Auth-Key {self.api_key}"

    def answer(self, body):
        if body.get("tag_handling") != "xml" or body.get("ignore_tags") != ["x"]:
            self.errors.append("DeepL: the placeholders were not sent as ignored XML tags")
        target = body["target_lang"]
        return {
            "translations": [
                {"detected_source_language": body.get("source_lang", "EN"), "text": translated}
                for translated in (self.translator(text, target) for text in body["text"])
            ]
        }


class LibreTranslateStandIn(StandIn):
    name = "libretranslate"
    path = "/translate"

    def texts_of(self, body):
        return body["q"] if isinstance(body["q"], list) else [body["q"]]

    def description(self):
        return libretranslate_description()

    def authorized(self, headers, body) -> bool:
        return body.get("api_key") == self.api_key

    def answer(self, body):
        texts = body["q"] if isinstance(body["q"], list) else [body["q"]]
        translated = [self.translator(text, body["target"]) for text in texts]
        return {"translatedText": translated if isinstance(body["q"], list) else translated[0]}

    def error_body(self, message: str) -> Any:
        return {"error": message}


class OpenAIStandIn(StandIn):
    name = "openai"
    # Served under /v1, as Ollama, vLLM and LiteLLM do; the description's path is the rest.
    prefix = "/v1"
    path = "/v1/chat/completions"
    unauthorized_status = 401

    def __init__(self, api_key: str = API_KEY):
        super().__init__(api_key)
        self.reply: Callable[[dict], str] | None = None  # the whole message content, when set

    def description(self):
        return openai_description()

    def texts_of(self, body):
        return json.loads(self.request_text(body["messages"][-1]))["texts"]

    @staticmethod
    def request_text(message: dict) -> str:
        """A user message's text: its content, or its one text part (the others: images)."""
        content = message["content"]
        if isinstance(content, str):
            return content
        (text,) = [part["text"] for part in content if part["type"] == "text"]
        return text

    @staticmethod
    def images_of(body: dict) -> list[dict]:
        """The image parts of a request's user message."""
        content = body["messages"][-1]["content"]
        return [part for part in content if part["type"] == "image_url"] if isinstance(content, list) else []

    def authorized(self, headers, body) -> bool:
        return headers.get("Authorization") == f"Bearer {self.api_key}"

    def answer(self, body):
        system, user = body["messages"][0], body["messages"][-1]
        if system["role"] != "system" or user["role"] != "user":
            self.errors.append("OpenAI: expected a system and a user message")
        request = json.loads(self.request_text(user))
        if self.reply is not None:
            content = self.reply(body)
        else:
            target = system["content"].split("to the language ", 1)[1].split(" ", 1)[0]
            content = json.dumps(
                {"translations": [self.translator(text, target) for text in request["texts"]]},
                ensure_ascii=False,
            )
        return {
            "id": "chatcmpl-standin",
            "object": "chat.completion",
            "created": 1767225600,
            "model": body["model"],
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "logprobs": None,
                    "message": {"role": "assistant", "content": content, "refusal": None},
                }
            ],
        }

    def error_body(self, message: str) -> Any:
        return {"error": {"message": message, "type": "invalid_request_error", "param": None, "code": None}}


STAND_INS = {"deepl": DeepLStandIn, "libretranslate": LibreTranslateStandIn, "openai": OpenAIStandIn}
