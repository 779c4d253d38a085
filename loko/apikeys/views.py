"""Pages: a project's API keys. A new key is shown in full in the response to the form that
created it, and never again: it is not stored anywhere it could be shown from."""

from flask import Blueprint, request, url_for

from loko.apikeys import service
from loko.apikeys.schemas import ApiKeyCreate
from loko.web.pages import REFUSED, attempt, form_input, page_user, project_page, render_page, submit

apikeys_ui = Blueprint("apikeys_ui", __name__)


@apikeys_ui.route("/projects/<uuid:project_id>/keys", methods=["GET", "POST"])
def keys(project_id):
    actor, project_id = page_user(), str(project_id)
    if request.method == "GET":
        return keys_page(actor, project_id)
    created = attempt(lambda: service.create_api_key(actor, project_id, **form_input(ApiKeyCreate)))
    if created is REFUSED:
        return keys_page(actor, project_id)
    key, record = created
    return keys_page(actor, project_id, created={"key": key, "record": record}, status=201)


@apikeys_ui.post("/projects/<uuid:project_id>/keys/<uuid:key_id>/revoke")
def revoke(project_id, key_id):
    actor, project_id = page_user(), str(project_id)
    done = submit(
        lambda: service.revoke_api_key(actor, project_id, str(key_id)),
        then=url_for("apikeys_ui.keys", project_id=project_id),
        notice="API key revoked: it no longer works.",
    )
    return done if done is not None else keys_page(actor, project_id)


def keys_page(actor, project_id: str, created: dict | None = None, status: int | None = None):
    view = project_page(project_id)
    return render_page(
        "apikeys/keys.html",
        status,
        view=view,
        keys=service.list_api_keys(actor, project_id),
        created=created,
        form={} if created else request.form,
    )
