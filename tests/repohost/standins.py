"""Local stand-ins for GitHub, GitLab and Gitea: one threaded ``http.server`` each on
127.0.0.1, serving the REST endpoints Loko uses from in-memory repositories, branches,
permissions and pull requests, and git smart-HTTP on the same port (``git_server.GitServer``).

Every API request and every response is checked against the host's published API
description (``api_descriptions/<host>.json``, each naming its source): a path or method
the description lacks, an undeclared query parameter, a body field it does not name or of
the wrong type, a status it does not list, a response missing a required field. What does
not match is collected in ``errors``, which the tests' fixtures assert empty, so a provider
speaking the API wrong fails its test even when the stand-in answered.

The state is open to tests: ``repositories[path].pulls`` (opened and updated pull
requests), ``branches``, ``calls`` (every API request with its headers), and the knobs:
``add_repository(writable=False)`` for a token that may not push, ``read_only_token``,
``fail_next(status, message)``, ``page_size``, and on GitLab ``set_role`` (a role given
directly or inherited from a parent group).
"""

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlencode, urlsplit

from jsonschema import Draft4Validator

from tests.repohost.git_server import GitServer

DESCRIPTIONS = Path(__file__).parent / "api_descriptions"
# Answered by every host's front (a rejected token, a missing resource, a crash) to any
# request, yet not listed for every operation in the descriptions; their bodies are checked
# against the host's error schema instead.
ANY_OPERATION_STATUSES = {401, 404, 500}
SHA = "1111111111111111111111111111111111111111"


# API descriptions
class ApiDescription:
    """One host's description (OpenAPI 3.0): finds the operation of a request and lists
    what, in a request or a response, does not match it."""

    def __init__(self, name: str, error_schema: dict):
        document = json.loads((DESCRIPTIONS / f"{name}.json").read_text())
        self.source = document["source"]
        self.components = _json_schema(document["components"])
        self.error_schema = error_schema
        self.operations = []
        for template, methods in document["paths"].items():
            for method, operation in methods.items():
                segments = template.strip("/").split("/")
                self.operations.append((segments, method.upper(), _json_schema(operation)))
        self._validators: dict[int, Draft4Validator] = {}

    def resolve(self, node: dict) -> dict:
        while isinstance(node, dict) and "$ref" in node:
            kind, name = node["$ref"].removeprefix("#/components/").split("/", 1)
            node = self.components[kind][name]
        return node

    def operation(self, method: str, raw_path: str) -> tuple[dict, dict[str, str]] | None:
        """The operation of ``method`` on ``raw_path`` (percent-encoded, as sent) and its path
        parameters; None when the description has none. Literal segments win over parameters."""
        parts = raw_path.strip("/").split("/")
        best = None
        for segments, verb, operation in self.operations:
            if verb != method or len(segments) != len(parts):
                continue
            params, literals = {}, 0
            for template, part in zip(segments, parts, strict=True):
                if template.startswith("{") and template.endswith("}"):
                    if not part:
                        break
                    params[template[1:-1]] = unquote(part)
                elif template == unquote(part):
                    literals += 1
                else:
                    break
            else:
                if best is None or literals > best[0]:
                    best = (literals, operation, params)
        return None if best is None else (best[1], best[2])

    def request_errors(
        self, operation: dict, path_params: dict, query: dict[str, list[str]], headers, body: bytes
    ) -> list[str]:
        errors = []
        declared = {}
        for parameter in map(self.resolve, operation.get("parameters", [])):
            declared[(parameter["in"], parameter["name"])] = parameter
        for (place, name), parameter in declared.items():
            schema = parameter.get("schema", {})
            if place == "path":
                errors += self._value_errors(f"path parameter {name}", schema, [path_params.get(name, "")])
            elif place == "query" and name in query:
                errors += self._value_errors(f"query parameter {name}", schema, query[name])
            elif place == "query" and parameter.get("required"):
                errors.append(f"query parameter {name} is required")
        for name in query:
            if ("query", name) not in declared:
                errors.append(f"query parameter {name} is not in the description")
        errors += self._body_errors(operation, headers, body)
        return errors

    def response_errors(self, operation: dict, status: int, body: Any) -> list[str]:
        responses = operation.get("responses", {})
        response = responses.get(str(status), responses.get("default"))
        if response is None:
            if status in ANY_OPERATION_STATUSES:
                return self.validate(self.error_schema, body, f"{status} response")
            return [f"status {status} is not in the description ({', '.join(responses)})"]
        schema = self.resolve(response).get("content", {}).get("application/json", {}).get("schema")
        if schema is None:
            return []
        return self.validate(schema, body, f"{status} response")

    def response_schema(self, operation: dict, status: int) -> dict:
        response = self.resolve(operation["responses"][str(status)])
        return response["content"]["application/json"]["schema"]

    def validate(self, schema: dict, instance: Any, what: str) -> list[str]:
        validator = self._validators.get(id(schema))
        if validator is None:
            root = {"allOf": [schema], "components": self.components}
            validator = Draft4Validator(root, format_checker=Draft4Validator.FORMAT_CHECKER)
            self._validators[id(schema)] = validator
        return [
            f"{what}: {'/'.join(map(str, error.absolute_path)) or '(top)'}: {error.message[:300]}"
            for error in validator.iter_errors(instance)
        ]

    def sample(self, schema: dict, overlay: Any = None) -> Any:
        """The smallest value ``schema`` accepts (required fields only, null where allowed),
        with ``overlay`` laid over it: how the stand-ins fill the fields they do not track."""
        if isinstance(overlay, list):
            items = self.resolve(schema).get("items", {})
            return [self.sample(items, item) for item in overlay]
        return _merge(self._minimal(schema, 0), overlay)

    def _minimal(self, schema: dict, depth: int) -> Any:
        schema = self.resolve(schema)
        if depth > 12:
            return None
        if "anyOf" in schema or "oneOf" in schema:
            options = schema.get("anyOf") or schema.get("oneOf")
            if {"type": "null"} in options:
                return None
            return self._minimal(options[0], depth + 1)
        if "allOf" in schema:
            value = None
            for part in schema["allOf"]:
                value = _merge(value, self._minimal(part, depth + 1))
            return value
        if "enum" in schema:
            return schema["enum"][0]
        kind = schema.get("type", "object" if "properties" in schema else None)
        if kind == "object":
            properties = schema.get("properties", {})
            return {
                name: self._minimal(properties.get(name, {}), depth + 1)
                for name in schema.get("required", [])
            }
        formats = {
            "date-time": "2024-01-01T00:00:00Z",
            "uri": "https://example.org/",
            "email": "someone@example.org",
        }
        return {
            "array": [],
            "string": formats.get(schema.get("format"), "text"),
            "integer": 1,
            "number": 1,
            "boolean": False,
        }.get(kind)

    def _value_errors(self, what: str, schema: dict, values: list[str]) -> list[str]:
        schema = self.resolve(schema)
        if schema.get("type") == "array":
            coerced = [_coerce(self.resolve(schema.get("items", {})), value) for value in values]
        elif len(values) > 1:
            return [f"{what} is given {len(values)} times"]
        else:
            coerced = _coerce(schema, values[0])
        return self.validate(schema, coerced, what)

    def _body_errors(self, operation: dict, headers, body: bytes) -> list[str]:
        request_body = self.resolve(operation.get("requestBody", {}))
        if not request_body:
            return ["the operation takes no body"] if body else []
        if not body:
            return ["the body is required"] if request_body.get("required") else []
        content_type = (headers.get("Content-Type") or "").split(";")[0].strip()
        schema = request_body.get("content", {}).get(content_type, {}).get("schema")
        if schema is None:
            return [f"the body's type {content_type or '(none)'} is not in the description"]
        try:
            document = json.loads(body)
        except ValueError:
            return ["the body is not JSON"]
        errors = self.validate(schema, document, "body")
        # Hosts ignore fields they do not know, so a misspelt one would pass unseen there.
        named = self.resolve(schema).get("properties")
        if isinstance(document, dict) and named is not None:
            errors += [
                f"body field {name} is not in the description" for name in document if name not in named
            ]
        return errors


_LOADED: dict[str, ApiDescription] = {}


def description(name: str, error_schema: dict) -> ApiDescription:
    """The description of host ``name``, read once per test run."""
    if name not in _LOADED:
        _LOADED[name] = ApiDescription(name, error_schema)
    return _LOADED[name]


def _json_schema(node: Any) -> Any:
    """OpenAPI 3.0's ``nullable`` as JSON Schema: ``anyOf`` the schema or null."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: _json_schema(value) for key, value in node.items() if key != "nullable"}
    return {"anyOf": [converted, {"type": "null"}]} if node.get("nullable") is True else converted


def _coerce(schema: dict, value: str) -> Any:
    kind = schema.get("type")
    try:
        if kind == "integer":
            return int(value)
        if kind == "number":
            return float(value)
    except ValueError:
        return value
    if kind == "boolean":
        return {"true": True, "false": False}.get(value, value)
    return value


def _merge(base: Any, overlay: Any) -> Any:
    if overlay is None:
        return base
    if isinstance(base, dict) and isinstance(overlay, dict):
        merged = dict(base)
        for key, value in overlay.items():
            merged[key] = _merge(base.get(key), value)
        return merged
    return overlay


# state
@dataclass
class Pull:
    number: int
    head: str
    base: str
    title: str
    body: str
    state: str = "open"
    updates: int = 0


@dataclass
class Repository:
    path: str  # "owner/name", GitLab "group/sub/project"
    id: int
    default_branch: str = "main"
    branches: set[str] = field(default_factory=set)
    writable: bool = True
    pulls: list[Pull] = field(default_factory=list)


@dataclass(frozen=True)
class Call:
    method: str
    path: str  # under the API root, as sent
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any
    read_only: bool  # made with the token that may not push


class Reply(Exception):
    """Ends a request early with the host's answer (an error, a refusal)."""

    def __init__(self, status: int, body: Any):
        super().__init__(status)
        self.status, self.body = status, body


# the server
class StandIn:
    """One host on the loopback: ``api_url`` for the providers, git at ``git_url(path)``."""

    name = ""
    api_root = ""
    error_schema: dict = {}

    def __init__(self, token: str = "stand-in-token", read_only_token: str = "read-only-token"):
        self.token, self.read_only_token = token, read_only_token
        self.api = description(self.name, self.error_schema)
        self.git = GitServer(token=token)
        self.repositories: dict[str, Repository] = {}
        self.errors: list[str] = []
        self.calls: list[Call] = []
        self.page_size = 30
        self.foreign_next_page: str | None = None
        self._failures: list[tuple[int, str]] = []
        self._lock = threading.RLock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        # When set, every API request waits for the gate to open (``held`` tells one came).
        self.gate: threading.Event | None = None
        self.held = threading.Event()

    # lifecycle
    def start(self) -> "StandIn":
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                stand_in.handle(self)

            do_POST = do_PUT = do_PATCH = do_DELETE = do_GET

            def log_message(self, format, *args):
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._thread.join()
            self._server = None
        self.git.stop()

    def __enter__(self) -> "StandIn":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def api_url(self) -> str:
        return f"{self.url}{self.api_root}"

    def git_url(self, path: str) -> str:
        return f"{self.url}/{path}.git"

    # state
    def add_repository(
        self,
        path: str,
        branches: tuple[str, ...] = ("main",),
        writable: bool = True,
        files: dict[str, bytes] | None = None,
    ) -> Repository:
        """A repository with ``branches`` (the first is the default); with ``files``, also a
        git repository holding them on that branch."""
        with self._lock:
            repository = Repository(path, len(self.repositories) + 1, branches[0], set(branches), writable)
            self.repositories[path] = repository
        if files is not None:
            self.git.create_repository(path, files, branches[0])
        return repository

    def fail_next(self, status: int = 500, message: str = "Internal Server Error") -> None:
        """The next API request is answered ``status`` with ``message`` in the host's error body."""
        with self._lock:
            self._failures.append((status, message))

    def has_branch(self, repository: Repository, branch: str) -> bool:
        if branch in repository.branches:
            return True
        return (self.git.root / f"{repository.path}.git").exists() and self.git.head(
            repository.path, branch
        ) is not None

    # requests
    def handle(self, handler: BaseHTTPRequestHandler) -> None:
        split = urlsplit(handler.path)
        if split.path.startswith(f"{self.api_root}/"):
            self._serve_api(handler, split)
        elif not self.git.handle(handler):
            self._report([f"{handler.command} {split.path}: neither under the API root nor a git repository"])
            _send(handler, 404, {"message": "Not Found"})

    def _serve_api(self, handler: BaseHTTPRequestHandler, split) -> None:
        if self.gate is not None:
            self.held.set()
            self.gate.wait(30)
        raw_path = split.path.removeprefix(self.api_root)
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length else b""
        query = parse_qs(split.query, keep_blank_values=True)
        try:
            document = json.loads(body) if body else None
        except ValueError:
            document = body.decode(errors="replace")
        token = self.token_of(handler.headers)
        call = Call(
            handler.command,
            raw_path,
            query,
            dict(handler.headers.items()),
            document,
            token == self.read_only_token,
        )
        with self._lock:
            self.calls.append(call)
        where = f"{handler.command} {raw_path}"
        found = self.api.operation(handler.command, raw_path)
        if found is None:
            self._report([f"{where}: no such operation in the {self.name} description"])
            _send(handler, 404, self.error_body(404, "Not Found"))
            return
        operation, params = found
        problems = self.api.request_errors(operation, params, query, handler.headers, body)
        if problems:
            self._report([f"{where}: {problem}" for problem in problems])
            _send(handler, 422, self.error_body(422, "; ".join(problems)))
            return
        serve = getattr(self, operation["operationId"].replace("/", "_").replace("-", "_"))
        try:
            with self._lock:
                if token not in (self.token, self.read_only_token):
                    raise Reply(401, self.error_body(401, self.bad_credentials))
                if self._failures:
                    status, message = self._failures.pop(0)
                    raise Reply(status, self.error_body(status, message))
                status, answer, headers = serve(call, params)
        except Reply as reply:
            status, answer, headers = reply.status, reply.body, {}
        except Exception as error:  # a bug in the stand-in: the test must fail, not hang
            self._report([f"{where}: the stand-in failed: {error!r}"])
            status, answer, headers = 500, self.error_body(500, "stand-in failure"), {}
        self._report(
            [f"{where}: {problem}" for problem in self.api.response_errors(operation, status, answer)]
        )
        _send(handler, status, answer, headers)

    def _report(self, problems: list[str]) -> None:
        with self._lock:
            self.errors.extend(problems)

    def may_write(self, repository: Repository, call: Call) -> bool:
        return repository.writable and not call.read_only

    def repository(self, path: str) -> Repository:
        repository = self.repositories.get(path)
        if repository is None:
            raise Reply(404, self.error_body(404, self.not_found))
        return repository

    def page(self, call: Call, items: list, page_param: str, size_param: str) -> tuple[list, dict[str, str]]:
        """One page of ``items`` and its ``Link`` header, as the hosts page lists."""
        number = int(call.query.get(page_param, ["1"])[0])
        size = min(int(call.query.get(size_param, [str(self.page_size)])[0]), self.page_size)
        start = (number - 1) * size
        headers = {}
        if start + size < len(items):
            query = {key: values[0] for key, values in call.query.items()} | {page_param: str(number + 1)}
            following = self.foreign_next_page or f"{self.api_url}{call.path}?{urlencode(query)}"
            headers["Link"] = f'<{following}>; rel="next"'
        return items[start : start + size], headers

    # per host
    bad_credentials = "Bad credentials"
    not_found = "Not Found"

    def token_of(self, headers) -> str | None:
        raise NotImplementedError

    def error_body(self, status: int, message: str) -> Any:
        return {"message": message}


def _send(handler: BaseHTTPRequestHandler, status: int, body: Any, headers: dict | None = None) -> None:
    payload = b"" if body is None else json.dumps(body).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json; charset=utf-8")
    handler.send_header("Content-Length", str(len(payload)))
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    handler.end_headers()
    handler.wfile.write(payload)


def _bearer(headers, *schemes: str) -> str | None:
    scheme, _, value = (headers.get("Authorization") or "").partition(" ")
    return value if scheme.lower() in schemes else None


def _operation(stand_in: StandIn, operation_id: str) -> dict:
    return next(op for _, _, op in stand_in.api.operations if op["operationId"] == operation_id)


# GitHub
class GitHubStandIn(StandIn):
    name = "github"
    api_root = "/api/v3"  # as GitHub Enterprise Server serves it
    error_schema = {"$ref": "#/components/schemas/basic-error"}

    def token_of(self, headers):
        return _bearer(headers, "bearer", "token")

    def error_body(self, status, message):
        return {
            "message": message,
            "documentation_url": "https://docs.github.com/rest",
            "status": str(status),
        }

    def _repo(self, params) -> Repository:
        return self.repository(f"{params['owner']}/{params['repo']}")

    def _repository_json(self, repository: Repository, call: Call) -> dict:
        owner, name = repository.path.split("/")
        write = self.may_write(repository, call)
        return {
            "id": repository.id,
            "name": name,
            "full_name": repository.path,
            "owner": {"login": owner, "id": 1, "type": "User"},
            "html_url": f"{self.url}/{repository.path}",
            "clone_url": self.git_url(repository.path),
            "default_branch": repository.default_branch,
            "permissions": {"admin": False, "maintain": False, "push": write, "triage": write, "pull": True},
        }

    def _pull_json(self, repository: Repository, pull: Pull, call: Call) -> dict:
        owner = repository.path.split("/")[0]
        repo = self.api.sample(
            {"$ref": "#/components/schemas/repository"}, self._repository_json(repository, call)
        )
        return {
            "id": 1000 + pull.number,
            "number": pull.number,
            "state": pull.state,
            "title": pull.title,
            "body": pull.body,
            "url": f"{self.api_url}/repos/{repository.path}/pulls/{pull.number}",
            "html_url": f"{self.url}/{repository.path}/pull/{pull.number}",
            "head": {"ref": pull.head, "label": f"{owner}:{pull.head}", "sha": SHA, "repo": repo},
            "base": {"ref": pull.base, "label": f"{owner}:{pull.base}", "sha": SHA, "repo": repo},
        }

    def repos_get(self, call, params):
        repository = self._repo(params)
        schema = self.api.response_schema(_operation(self, "repos/get"), 200)
        return 200, self.api.sample(schema, self._repository_json(repository, call)), {}

    def repos_get_branch(self, call, params):
        repository = self._repo(params)
        if not self.has_branch(repository, params["branch"]):
            raise Reply(404, self.error_body(404, "Branch not found"))
        schema = self.api.response_schema(_operation(self, "repos/get-branch"), 200)
        return 200, self.api.sample(schema, {"name": params["branch"], "commit": {"sha": SHA}}), {}

    def pulls_list(self, call, params):
        repository = self._repo(params)
        owner = repository.path.split("/")[0]
        head, base = call.query.get("head", [None])[0], call.query.get("base", [None])[0]
        state = call.query.get("state", ["open"])[0]
        pulls = [
            pull
            for pull in repository.pulls
            if state in ("all", pull.state)
            and (head is None or head == f"{owner}:{pull.head}")
            and (base is None or base == pull.base)
        ]
        shown, headers = self.page(call, pulls, "page", "per_page")
        schema = self.api.response_schema(_operation(self, "pulls/list"), 200)
        return (
            200,
            self.api.sample(schema, [self._pull_json(repository, pull, call) for pull in shown]),
            headers,
        )

    def pulls_create(self, call, params):
        repository = self._repo(params)
        if not self.may_write(repository, call):
            raise Reply(403, self.error_body(403, "Resource not accessible by personal access token"))
        data = call.body
        owner = repository.path.split("/")[0]
        if not self.has_branch(repository, data.get("head", "")):
            raise Reply(
                422, self._validation_failed({"resource": "PullRequest", "field": "head", "code": "invalid"})
            )
        if any(
            p.state == "open" and p.head == data["head"] and p.base == data["base"] for p in repository.pulls
        ):
            message = f"A pull request already exists for {owner}:{data['head']}."
            raise Reply(
                422,
                self._validation_failed({"resource": "PullRequest", "code": "custom", "message": message}),
            )
        pull = Pull(
            len(repository.pulls) + 1, data["head"], data["base"], data["title"], data.get("body", "")
        )
        repository.pulls.append(pull)
        schema = self.api.response_schema(_operation(self, "pulls/create"), 201)
        return 201, self.api.sample(schema, self._pull_json(repository, pull, call)), {}

    def pulls_update(self, call, params):
        repository = self._repo(params)
        if not self.may_write(repository, call):
            raise Reply(403, self.error_body(403, "Resource not accessible by personal access token"))
        pull = next((p for p in repository.pulls if p.number == int(params["pull_number"])), None)
        if pull is None:
            raise Reply(404, self.error_body(404, "Not Found"))
        pull.title, pull.body = call.body.get("title", pull.title), call.body.get("body", pull.body)
        pull.state = call.body.get("state", pull.state)
        pull.updates += 1
        schema = self.api.response_schema(_operation(self, "pulls/update"), 200)
        return 200, self.api.sample(schema, self._pull_json(repository, pull, call)), {}

    def _validation_failed(self, error: dict) -> dict:
        return {
            "message": "Validation Failed",
            "errors": [error],
            "documentation_url": "https://docs.github.com/rest",
        }


# GitLab
class GitLabStandIn(StandIn):
    name = "gitlab"
    api_root = "/api/v4"
    error_schema = {"$ref": "#/components/schemas/Error"}
    bad_credentials = "401 Unauthorized"
    not_found = "404 Project Not Found"

    # The token's user and the read-only token's user, by id.
    USERS = {1: ("loko", False), 2: ("reader", True)}
    DEVELOPER, REPORTER = 30, 20

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.roles: dict[tuple[str, bool], tuple[int, bool]] = {}

    def token_of(self, headers):
        return headers.get("PRIVATE-TOKEN") or _bearer(headers, "bearer")

    def set_role(
        self, path: str, access_level: int, inherited: bool = False, read_only: bool = False
    ) -> None:
        """The role of the token's user (of the read-only token's with ``read_only``) on the
        project ``path``; 0 for none. A direct role shows in the project's ``permissions``; an
        ``inherited`` one (through a parent group) only among its members, as GitLab answers
        for a group above the project's own."""
        with self._lock:
            self.roles[(path, read_only)] = (access_level, inherited)

    def role(self, repository: Repository, read_only: bool) -> tuple[int, bool]:
        """(access level, inherited) of the token's user, or of the read-only one's."""
        default = self.DEVELOPER if repository.writable and not read_only else self.REPORTER
        return self.roles.get((repository.path, read_only), (default, False))

    def may_write(self, repository: Repository, call: Call) -> bool:
        return repository.writable and self.role(repository, call.read_only)[0] >= self.DEVELOPER

    def _project_json(self, repository: Repository, call: Call) -> dict:
        namespace, _, name = repository.path.rpartition("/")
        level, inherited = self.role(repository, call.read_only)
        direct = {"access_level": level, "notification_level": 3} if level and not inherited else None
        return {
            "id": repository.id,
            "name": name,
            "path": name,
            "path_with_namespace": repository.path,
            "name_with_namespace": repository.path.replace("/", " / "),
            "default_branch": repository.default_branch,
            "web_url": f"{self.url}/{repository.path}",
            "http_url_to_repo": self.git_url(repository.path),
            "ssh_url_to_repo": f"git@127.0.0.1:{repository.path}.git",
            "namespace": {
                "id": 1,
                "name": namespace,
                "path": namespace,
                "kind": "group",
                "full_path": namespace,
            },
            "permissions": {"project_access": direct, "group_access": None},
        }

    def _merge_request_json(self, repository: Repository, pull: Pull) -> dict:
        return {
            "id": 1000 + pull.number,
            "iid": pull.number,
            "project_id": repository.id,
            "source_project_id": repository.id,
            "target_project_id": repository.id,
            "title": pull.title,
            "description": pull.body,
            "state": {"open": "opened"}.get(pull.state, pull.state),
            "source_branch": pull.head,
            "target_branch": pull.base,
            "web_url": f"{self.url}/{repository.path}/-/merge_requests/{pull.number}",
            "author": {"id": 1, "name": "Loko", "username": "loko", "state": "active", "avatar_url": None},
            "sha": SHA,
            "merge_status": "can_be_merged",
            "references": {
                "short": f"!{pull.number}",
                "relative": f"!{pull.number}",
                "full": f"{repository.path}!{pull.number}",
            },
        }

    def getSingleProject(self, call, params):
        repository = self.repository(params["id"])
        schema = self.api.response_schema(_operation(self, "getSingleProject"), 200)
        return 200, self.api.sample(schema, self._project_json(repository, call)), {}

    def listCurrentUser(self, call, params):
        user_id = 2 if call.read_only else 1
        username = self.USERS[user_id][0]
        user = {
            "id": user_id,
            "username": username,
            "name": username.title(),
            "state": "active",
            "web_url": f"{self.url}/{username}",
            "identities": [],
        }
        schema = self.api.response_schema(_operation(self, "listCurrentUser"), 200)
        return 200, self.api.sample(schema, user), {}

    def getMemberIncludingInherited(self, call, params):
        repository = self.repository(params["id"])
        found = self.USERS.get(int(params["user_id"]))
        level = self.role(repository, found[1])[0] if found else 0
        if not level:
            raise Reply(404, self.error_body(404, "404 Not found"))
        username = found[0]
        member = {
            "id": int(params["user_id"]),
            "username": username,
            "name": username.title(),
            "state": "active",
            "web_url": f"{self.url}/{username}",
            "access_level": level,
        }
        schema = self.api.response_schema(_operation(self, "getMemberIncludingInherited"), 200)
        return 200, self.api.sample(schema, member), {}

    def getSingleRepositoryBranch(self, call, params):
        repository = self.repository(params["id"])
        if not self.has_branch(repository, params["branch"]):
            raise Reply(404, self.error_body(404, "404 Branch Not Found"))
        body = {
            "name": params["branch"],
            "protected": False,
            "developers_can_push": False,
            "developers_can_merge": False,
            "commit": {"id": SHA},
        }
        return 200, body, {}

    def listProjectMergeRequests(self, call, params):
        repository = self.repository(params["id"])
        state = call.query.get("state", ["all"])[0]
        source, target = (
            call.query.get("source_branch", [None])[0],
            call.query.get("target_branch", [None])[0],
        )
        pulls = [
            pull
            for pull in repository.pulls
            if state in ("all", {"open": "opened"}.get(pull.state, pull.state))
            and source in (None, pull.head)
            and target in (None, pull.base)
        ]
        shown, headers = self.page(call, pulls, "page", "per_page")
        schema = self.api.response_schema(_operation(self, "listProjectMergeRequests"), 200)
        return 200, self.api.sample(schema, [self._merge_request_json(repository, p) for p in shown]), headers

    def createMergeRequest(self, call, params):
        repository = self.repository(params["id"])
        if not self.may_write(repository, call):
            raise Reply(403, self.error_body(403, "403 Forbidden"))
        data = call.body
        existing = next(
            (
                p
                for p in repository.pulls
                if p.state == "open" and p.head == data["source_branch"] and p.base == data["target_branch"]
            ),
            None,
        )
        if existing is not None:
            message = [
                f"Another open merge request already exists for this source branch: !{existing.number}"
            ]
            raise Reply(409, {"message": message})
        pull = Pull(
            len(repository.pulls) + 1,
            data["source_branch"],
            data["target_branch"],
            data["title"],
            data.get("description", ""),
        )
        repository.pulls.append(pull)
        schema = self.api.response_schema(_operation(self, "createMergeRequest"), 201)
        return 201, self.api.sample(schema, self._merge_request_json(repository, pull)), {}

    def updateMergeRequest(self, call, params):
        repository = self.repository(params["id"])
        if not self.may_write(repository, call):
            raise Reply(403, self.error_body(403, "403 Forbidden"))
        pull = next((p for p in repository.pulls if p.number == int(params["merge_request_iid"])), None)
        if pull is None:
            raise Reply(404, self.error_body(404, "404 Not found"))
        pull.title = call.body.get("title", pull.title)
        pull.body = call.body.get("description", pull.body)
        event = call.body.get("state_event")
        if event is not None:
            pull.state = {"close": "closed", "reopen": "open"}[event]
        pull.updates += 1
        schema = self.api.response_schema(_operation(self, "updateMergeRequest"), 200)
        return 200, self.api.sample(schema, self._merge_request_json(repository, pull)), {}


# Gitea
class GiteaStandIn(StandIn):
    name = "gitea"
    api_root = "/api/v1"
    error_schema = {"$ref": "#/components/schemas/APIError"}
    bad_credentials = "invalid username, password or token"
    not_found = "The target couldn't be found."

    def token_of(self, headers):
        return _bearer(headers, "token", "bearer")

    def error_body(self, status, message):
        return {"message": message, "url": f"{self.url}/api/swagger"}

    def _repo(self, params) -> Repository:
        return self.repository(f"{params['owner']}/{params['repo']}")

    def _repository_json(self, repository: Repository, call: Call) -> dict:
        owner, name = repository.path.split("/")
        write = self.may_write(repository, call)
        return {
            "id": repository.id,
            "name": name,
            "full_name": repository.path,
            "owner": {"id": 1, "login": owner},
            "html_url": f"{self.url}/{repository.path}",
            "clone_url": self.git_url(repository.path),
            "default_branch": repository.default_branch,
            "permissions": {"admin": False, "push": write, "pull": True},
        }

    def _pull_json(self, repository: Repository, pull: Pull, call: Call) -> dict:
        branch = {"repo_id": repository.id, "repo": self._repository_json(repository, call), "sha": SHA}
        return {
            "id": 1000 + pull.number,
            "number": pull.number,
            "state": pull.state,
            "title": pull.title,
            "body": pull.body,
            "url": f"{self.url}/{repository.path}/pulls/{pull.number}",
            "html_url": f"{self.url}/{repository.path}/pulls/{pull.number}",
            "head": {**branch, "ref": pull.head, "label": pull.head},
            "base": {**branch, "ref": pull.base, "label": pull.base},
            "user": {"id": 1, "login": "loko"},
            "mergeable": True,
            "merged": False,
        }

    def repoGet(self, call, params):
        return 200, self._repository_json(self._repo(params), call), {}

    def repoGetBranch(self, call, params):
        repository = self._repo(params)
        if not self.has_branch(repository, params["branch"]):
            raise Reply(404, self.error_body(404, self.not_found))
        write = self.may_write(repository, call)
        body = {
            "name": params["branch"],
            "commit": {"id": SHA, "message": "Initial commit"},
            "protected": False,
            "user_can_push": write,
            "user_can_merge": write,
        }
        return 200, body, {}

    def repoListPullRequests(self, call, params):
        repository = self._repo(params)
        state = call.query.get("state", ["open"])[0]
        base = call.query.get("base_branch", [None])[0]
        pulls = [p for p in repository.pulls if state in ("all", p.state) and base in (None, p.base)]
        shown, headers = self.page(call, pulls, "page", "limit")
        return 200, [self._pull_json(repository, pull, call) for pull in shown], headers

    def repoCreatePullRequest(self, call, params):
        repository = self._repo(params)
        if not self.may_write(repository, call):
            raise Reply(403, self.error_body(403, "user should have permission to write to target branch"))
        data = call.body
        if not self.has_branch(repository, data.get("head", "")):
            raise Reply(404, self.error_body(404, self.not_found))
        existing = next(
            (
                p
                for p in repository.pulls
                if p.state == "open" and p.head == data["head"] and p.base == data["base"]
            ),
            None,
        )
        if existing is not None:
            message = (
                "pull request already exists for these targets "
                f"[id: {1000 + existing.number}, issue_id: {existing.number}, "
                f"head_repo_id: {repository.id}, base_repo_id: {repository.id}, "
                f"head_branch: {existing.head}, base_branch: {existing.base}]"
            )
            raise Reply(409, self.error_body(409, message))
        pull = Pull(
            len(repository.pulls) + 1, data["head"], data["base"], data.get("title", ""), data.get("body", "")
        )
        repository.pulls.append(pull)
        return 201, self._pull_json(repository, pull, call), {}

    def repoEditPullRequest(self, call, params):
        repository = self._repo(params)
        if not self.may_write(repository, call):
            raise Reply(403, self.error_body(403, "user should have permission to write to target branch"))
        pull = next((p for p in repository.pulls if p.number == int(params["index"])), None)
        if pull is None:
            raise Reply(404, self.error_body(404, self.not_found))
        pull.title, pull.body = call.body.get("title", pull.title), call.body.get("body", pull.body)
        pull.state = call.body.get("state", pull.state)
        pull.updates += 1
        return 201, self._pull_json(repository, pull, call), {}  # Gitea answers an edit with 201


STAND_INS: dict[str, type[StandIn]] = {
    "github": GitHubStandIn,
    "gitlab": GitLabStandIn,
    "gitea": GiteaStandIn,
}
