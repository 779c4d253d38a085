"""Pages: the machine translation section of an organization's settings page (its forms:
add, change, enable or disable, test, delete a provider, post here; each redirects back to
the settings page with a notice, or shows that page again with the error), and a project's
Pre-translate page, whose form starts the job (then shown on the Jobs page) or estimates it."""

from flask import Blueprint, request, url_for
from werkzeug.datastructures import MultiDict

from loko.auth.policy import MANAGE_MACHINE
from loko.errors import BadRequest
from loko.http import schema_instance
from loko.machine import pretranslate, service
from loko.machine.schemas import DEFAULT_MIN_SCORE, MachineProviderIn, MachineProviderPatch, PretranslateIn
from loko.organizations import service as organizations
from loko.organizations.views import settings_page
from loko.web.pages import REFUSED, attempt, page_user, project_page, redirect_with_notice, render_page

machine_ui = Blueprint("machine_ui", __name__)
PATH = "/orgs/<uuid:organization_id>/machine-providers"
TEXT_FIELDS = {"name": "name", "base_url": "baseUrl", "model": "model", "instruction": "instruction"}


def language_instructions(text: str) -> dict:
    """``de: Use du.`` lines as ``{"de": "Use du."}``; BadRequest naming a line without a code."""
    instructions = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        code, colon, instruction = line.partition(":")
        if not colon or not code.strip():
            raise BadRequest(f"language_instructions: line {number} is not 'code: instruction'.")
        instructions[code.strip()] = instruction.strip()
    return instructions


def _form_data(creating: bool) -> dict:
    data = {}
    for name, field in TEXT_FIELDS.items():
        if name in request.form:
            value = request.form[name].strip()
            data[field] = value or (None if field in ("baseUrl", "model") else value)
    if creating:
        data["kind"] = request.form.get("kind", "")
        data["enabled"] = request.form.get("enabled") == "true"
        data["seesImages"] = request.form.get("sees_images") == "true"
    key = request.form.get("api_key", "")
    if key.strip() or request.form.get("remove_key") == "true":
        data["apiKey"] = key.strip() or None  # a blank key field keeps the stored key
    if "language_instructions" in request.form:
        data["languageInstructions"] = language_instructions(request.form["language_instructions"])
    if not creating and data.get("name") == "":
        data.pop("name")
    return data


@machine_ui.post(PATH)
def forms(organization_id):
    actor, organization_id = page_user(), str(organization_id)
    organization = organizations.get_organization(actor, organization_id, MANAGE_MACHINE)
    actions = {
        "add": lambda: service.create_provider(
            actor, organization_id, schema_instance(MachineProviderIn).load(_form_data(True))
        ),
        "change": lambda: service.update_provider(
            actor, organization_id, _chosen(), schema_instance(MachineProviderPatch).load(_form_data(False))
        ),
        "enable": lambda: service.update_provider(actor, organization_id, _chosen(), {"enabled": True}),
        "disable": lambda: service.update_provider(actor, organization_id, _chosen(), {"enabled": False}),
        "test": lambda: service.check_provider(actor, organization_id, _chosen()),
        "delete": lambda: service.delete_provider(actor, organization_id, _chosen()),
    }
    name = request.form.get("form", "")
    if name not in actions:
        raise BadRequest(f"form: unknown machine translation form {name!r}.")
    result = attempt(actions[name])
    if result is REFUSED:
        return settings_page(organization, f"machine-{name}")
    here = url_for("organizations_ui.settings", organization_id=organization_id) + "#machine-heading"
    return redirect_with_notice(here, _notice(name, result))


def _chosen() -> str:
    return request.form.get("provider", "")


def _notice(name: str, result) -> str:
    if name == "test":
        if result["ok"]:
            return f"Test passed: “{result['source']}” came back as “{result['text']}”."
        return f"Test failed: {result['error']}"
    return {
        "add": "Provider added.",
        "change": "Provider changed.",
        "enable": "Provider enabled: it suggests translations again.",
        "disable": "Provider disabled: it is asked nothing until enabled again.",
        "delete": "Provider removed.",
    }[name]


# -- Pre-translation ---------------------------------------------------------------------

PRETRANSLATE_PATH = "/projects/<uuid:project_id>/pretranslate"


@machine_ui.get(PRETRANSLATE_PATH)
def pretranslate_page(project_id):
    return _pretranslate_page(str(project_id))


@machine_ui.post(PRETRANSLATE_PATH)
def pretranslate_start(project_id):
    actor, project_id = page_user(), str(project_id)
    answer = attempt(lambda: pretranslate.start(actor, project_id, _pretranslate_form()))
    if answer is REFUSED:
        return _pretranslate_page(project_id, form=request.form)
    if answer["dryRun"]:
        return _pretranslate_page(project_id, form=request.form, estimate=answer)
    jobs_url = url_for("jobs_ui.jobs", project_id=project_id) + f"#job-{answer['job']['id']}"
    return redirect_with_notice(jobs_url, "Pre-translation queued: its progress shows here.")


def _pretranslate_form() -> dict:
    """The form's fields as the API's body, loaded by its schema."""
    form = request.form
    sources: dict = {}
    if form.get("use_memory") == "true":
        score = form.get("min_score", "").strip()
        sources["memory"] = {"minScore": score} if score else {}
    if form.get("provider"):
        sources["provider"] = form["provider"]
    data: dict = {"languages": form.getlist("languages"), "sources": sources, "dryRun": "estimate" in form}
    if form.get("as_proposals") == "true":
        data["asProposals"] = True
    if form.getlist("files"):
        data["files"] = form.getlist("files")
    if form.get("search", "").strip():
        data["filter"] = {"search": form["search"].strip()}
    return schema_instance(PretranslateIn).load(data)


def _pretranslate_page(project_id: str, form=None, estimate=None):
    view = project_page(project_id)
    choices = pretranslate.options(page_user(), project_id)
    return render_page(
        "machine/pretranslate.html",
        view=view,
        choices=choices,
        form=form or MultiDict(),
        estimate=estimate,
        default_min_score=DEFAULT_MIN_SCORE,
    )
