"""The service layer's refusals on the pages: each one the code raises has its pattern in
loko/web/refusals.py, a page shows it in the page's language (in the pseudo-locale, wrapped
in [[...]] with its parameters put back), and the REST API still answers the same refusal
in English."""

import ast
import io
import re
from pathlib import Path

import pytest
from flask_babel import force_locale

from loko.database import unit_of_work
from loko.jobs import service as jobs
from loko.web.refusals import REFUSALS, page_message
from tests.i18n.conftest import PSEUDO
from tests.pages.conftest import PageClient, alert_of
from tests.translation_factories import ProjectApi

ROOT = Path(__file__).resolve().parents[2]
ERRORS = {
    "LokoError",
    "BadRequest",
    "Unauthorized",
    "Forbidden",
    "NotFound",
    "Conflict",
    "PayloadTooLarge",
    "UnsupportedMediaType",
    "BadGateway",
    "Refused",
    "InvitationGone",
    "DeliveryRefused",
    "SignInRefused",
    "ProviderUnavailable",
    "RunBusy",
    "ChangedSincePreview",
    "UnreadableSecret",
}
# Where no page shows a refusal: the REST API, the MCP server, the CLI and its client, the
# server's backup commands, and the page views (which mark their own messages).
NOT_SERVICES = ("api.py", "views.py", "cli.py", "backup.py")
NOT_SERVICE_FOLDERS = ("mcp", "client", "migrations")
# Refusals only an API client meets (a JSON body, a bearer key, a cursor, a webhook's call).
API_ONLY = {
    "Authentication required: send a session cookie or an API key.",
    "This endpoint requires a signed-in user session; API keys are not accepted.",
    "This API key does not belong to this project.",
    "The request body must be a JSON object.",
    "Content-Type must be application/json.",
    "Malformed JSON body: %s",
    "cursor: not a nextCursor of this listing (with this sort).",
    "cursor: not a nextCursor of this preview; leave it out to start from the first page.",
    "cursor: not a cursor returned by this tool; omit it to start from the beginning.",
    "webhook: the signature does not match this project's webhook secret.",
    "webhook: the user who configured the repository no longer exists; configure it again.",
    "webhook: the body is not JSON.",
    "language: this API key does not write %s, so it cannot give a task in it.",
    "assignees.%s: an API key gives a review task only to people who may already review %s.",
}
PLACEHOLDER = re.compile(r"%\(\w+\)s")


def _shape(node, constants) -> str | None:
    """A refusal's message with each variable part as ``%s``; None when it is built at run
    time (a joined list, another error's text)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name | ast.Attribute):
        name = node.id if isinstance(node, ast.Name) else node.attr
        return constants.get(name)
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "%s" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _shape(node.left, constants), _shape(node.right, constants)
        return left + right if left is not None and right is not None else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        template = _shape(node.func.value, constants)
        return re.sub(r"\{\w*\}", "%s", template) if template is not None else None
    return None


def raised_refusals() -> set[str]:
    """Every message the service code raises as a LokoError, with its variable parts as
    ``%s``: string constants, f-strings, a module constant (or a dict of them) by name."""
    modules = []
    constants: dict[str, str] = {}
    for path in sorted((ROOT / "loko").rglob("*.py")):
        relative = path.relative_to(ROOT / "loko")
        if path.name.endswith(NOT_SERVICES) or relative.parts[0] in NOT_SERVICE_FOLDERS:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules.append(tree)
        for node in tree.body:
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
            ):
                shape = _shape(node.value, {})
                if shape is not None:
                    constants[node.targets[0].id] = shape
    found = set()
    for tree in modules:
        dicts = {
            node.targets[0].id: node.value
            for node in tree.body
            if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Dict)
            and isinstance(node.targets[0], ast.Name)
        }
        for node in ast.walk(tree):
            name = getattr(node, "func", None)
            name = getattr(name, "id", None) or getattr(name, "attr", None)
            if not isinstance(node, ast.Call) or not node.args or name not in ERRORS | {"__init__"}:
                continue
            if name == "__init__" and not isinstance(node.args[0], ast.Name):
                continue
            argument = node.args[0]
            table = None
            if isinstance(argument, ast.Subscript) and isinstance(argument.value, ast.Name):
                table = dicts.get(argument.value.id)
            elif isinstance(argument, ast.Call) and getattr(argument.func, "attr", None) == "get":
                table = dicts.get(getattr(argument.func.value, "id", None))
                if len(argument.args) > 1:
                    found.add(_shape(argument.args[1], constants))
            if table is not None:
                found.update(_shape(value, constants) for value in table.values)
            else:
                found.add(_shape(argument, constants))
    return {shape for shape in found if shape and re.search(r"[A-Za-z]{3}", shape.replace("%s", ""))}


def _generic(shape: str) -> bool:
    """``field: <another message>``: shown with the field as it is and the message after it
    translated on its own."""
    return re.fullmatch(r"[\w.\[\]%-]+: %s\.?", shape) is not None


def test_every_refusal_the_services_raise_has_its_pattern():
    patterns = {PLACEHOLDER.sub("%s", str(message._args[0])).replace("%%", "%") for message in REFUSALS}
    missing = {
        shape for shape in raised_refusals() - API_ONLY if not _generic(shape) and shape not in patterns
    }
    assert missing == set()
    assert len(patterns) == len(REFUSALS)


@pytest.fixture
def config_overrides(request, pseudo_locale_dir):
    """The pseudo-locale, unless a test asks for the shipped catalogs."""
    shipped = getattr(request, "param", None)
    return shipped or {"LOKO_LOCALE_DIR": str(pseudo_locale_dir), "LOKO_DEFAULT_LOCALE": PSEUDO}


def test_a_refused_page_form_shows_the_refusal_translated_and_rest_keeps_it_english(app, world, as_caller):
    api = ProjectApi(as_caller("project_admin"), world.project_id)
    api.add_language("de")
    message = "code: the project already has the language 'de'."

    rest = as_caller("project_admin").post(f"/api/projects/{world.project_id}/languages", json={"code": "de"})
    assert rest.status_code == 409
    assert rest.json == {"error": message}

    owner = PageClient(app, world.credentials["org_owner"])
    page = owner.submit(f"/projects/{world.project_id}/languages", {"code": "de"})
    assert page.status_code == 409
    assert alert_of(page) == "[[code: the project already has the language &#39;de&#39;.]]"


def test_an_error_page_shows_the_service_refusal_translated(app, world):
    owner = PageClient(app, world.credentials["org_owner"])
    missing = owner.get("/projects/00000000-0000-7000-8000-000000000000")
    assert missing.status_code == 404
    assert "[[Project not found.]]" in missing.get_data(as_text=True)
    gone = owner.get("/join?token=not-a-token")
    assert gone.status_code == 404
    assert "[[This invitation link is not valid: check that it was copied whole" in gone.get_data(
        as_text=True
    )


def test_a_bad_import_on_the_page_is_refused_in_the_page_language(app, world, as_caller):
    owner = PageClient(app, world.credentials["org_owner"])
    page = owner.submit(
        f"/projects/{world.project_id}/import",
        {"file": (io.BytesIO(b"{}"), "strings.json"), "format": "json"},
        content_type="multipart/form-data",
    )
    assert page.status_code == 400
    assert alert_of(page) == (
        "[[language: required for &#39;strings.json&#39; (format json holds one language).]]"
    )
    rest = as_caller("project_admin").post(
        f"/api/projects/{world.project_id}/import?format=json&fileName=strings",
        data=b"{}",
        content_type="application/json",
    )
    assert rest.status_code == 400
    assert rest.json == {"error": "language: required for 'strings' (format json holds one language)."}


def test_a_form_field_with_choices_is_refused_in_the_page_language(app, world):
    owner = PageClient(app, world.credentials["org_owner"])
    page = owner.submit(
        f"/projects/{world.project_id}/import",
        {"file": (io.BytesIO(b"{}"), "strings.json"), "format": "nope"},
        content_type="multipart/form-data",
    )
    assert page.status_code == 400
    assert alert_of(page).startswith("format: [[Must be one of: json, json-nested, po")


def test_parameters_that_are_product_words_or_refusals_are_translated_too(app):
    with app.test_request_context("/"):
        assert page_message("code: the project already has the language 'fr'.") == (
            "[[code: the project already has the language 'fr'.]]"
        )
        # A product word as a parameter is translated, a refusal quoted in another in turn.
        assert page_message("This requires the organization role owner.") == (
            "[[This requires the organization role [[owner]].]]"
        )
        assert page_message("file: the archive member 'a.png': The translation is not in the trash.") == (
            "[[file: the archive member 'a.png': [[The translation is not in the trash.]]]]"
        )
        # The field before a message no pattern names is kept, the message after it translated.
        assert (
            page_message("updates.de.value: Project not found.") == "updates.de.value: [[Project not found.]]"
        )
        # Anything else (a provider's own words) is shown as it is.
        assert page_message("DeepL: quota exceeded") == "DeepL: quota exceeded"
        assert page_message(None) is None


@pytest.mark.parametrize("config_overrides", [{"LOKO_DEFAULT_LOCALE": "de"}], indirect=True)
def test_a_shipped_language_words_the_refusal_naturally(app, world, as_caller):
    ProjectApi(as_caller("project_admin"), world.project_id).add_language("fr")
    owner = PageClient(app, world.credentials["org_owner"])
    page = owner.submit(f"/projects/{world.project_id}/languages", {"code": "fr"})
    assert alert_of(page) == "code: Das Projekt hat die Sprache &#39;fr&#39; bereits."
    with app.test_request_context("/"), force_locale("de"):
        assert page_message("This requires the organization role owner.") == (
            "Dies erfordert die Organisationsrolle Inhaber."
        )


def test_the_scripts_read_the_refusals_in_the_page_language(app, world):
    owner = PageClient(app, world.credentials["org_owner"])
    html = owner.get(f"/projects/{world.project_id}/editor").get_data(as_text=True)
    assert f'data-refusals="/locale/{PSEUDO}/refusals.json"' in html
    table = owner.get(f"/locale/{PSEUDO}/refusals.json")
    assert table.status_code == 200
    assert table.headers["Cache-Control"] == "public, max-age=86400"
    entries = dict(table.json["refusals"])
    assert entries["code: the project already has the language %(code)s."] == (
        "[[code: the project already has the language %(code)s.]]"
    )
    assert len(entries) == len(REFUSALS)
    # The most literal message first, as the pages try them.
    literal = [len(PLACEHOLDER.sub("", msgid)) for msgid, _text in table.json["refusals"]]
    assert literal == sorted(literal, reverse=True)
    assert table.json["labels"]["owner"] == "[[owner]]"
    # English pages need none; a language Loko does not ship has none.
    assert owner.get("/locale/en/refusals.json").status_code == 404
    assert owner.get("/locale/xx/refusals.json").status_code == 404


def test_a_long_message_full_of_separators_is_matched_in_one_pass(app, monkeypatch):
    """A key's name is the user's: a message made of the patterns' separators is read once
    per pattern, not tried every way (lazy regular expressions took about a second for one
    such message)."""
    from loko.web import patterns, refusals

    messages = [f"key: {'a.b: c. in the file ' * 40}{index} is x" for index in range(20)]
    tried = []

    def counted_match(literals, names, message):
        tried.append(message)
        return patterns.match(literals, names, message)

    with app.test_request_context("/"):
        pattern_count = len(refusals._patterns())
        monkeypatch.setattr(refusals, "match", counted_match)
        shown = [page_message(message) for message in messages]
    assert shown == messages
    # Each message (and the rest after its "key: " prefix, read again at most twice) is
    # tried once per pattern, by a matcher that finds each literal part once, left to right.
    assert len(tried) <= 3 * pattern_count * len(messages)


def test_a_failed_jobs_refusal_is_shown_in_the_page_language(app, world):
    with app.app_context():
        with unit_of_work():
            job_id = jobs.enqueue("test-never-runs", project_id=world.project_id).id
        jobs.claim("refusal-test-worker", {"test-never-runs"})
        refusal = "file: the archive holds no translation file."
        jobs.retry_or_fail(job_id, "refusal-test-worker", refusal, final=True)
    owner = PageClient(app, world.credentials["org_owner"])
    text = owner.get(f"/projects/{world.project_id}/jobs").get_data(as_text=True)
    assert "[[file: the archive holds no translation file.]]" in text


@pytest.mark.parametrize("claim", ["aud", "iss", "nonce", "sub", ""])
def test_a_sign_in_providers_claim_problem_is_shown_in_the_page_language(app, claim):
    from types import SimpleNamespace

    from loko.sso.service import _claim_problem

    provider = SimpleNamespace(label="Acme ID", client_id="loko-app", issuer="https://id.example")
    message = _claim_problem(provider, claim)
    with app.test_request_context("/"):
        shown = page_message(message)
    assert shown.startswith("[[") and shown.replace("[[", "").replace("]]", "") == message


@pytest.mark.parametrize(
    "message",
    [
        "Length must be between 2 and 64.",
        "Must be greater than or equal to 1 and less than or equal to 1000.",
        "Must be greater than or equal to 0.",
        "Must be less than or equal to 500.",
    ],
)
def test_marshmallows_messages_with_bounds_are_shown_in_the_page_language(app, message):
    with app.test_request_context("/"):
        shown = page_message(message)
    assert shown.startswith("[[") and shown.replace("[[", "").replace("]]", "") == message
