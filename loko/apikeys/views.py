"""Pages: a project's API keys. A new key is shown in full once, on the page the form's
redirect leads to (post/redirect/get: reloading it creates no other key), and never again:
Loko's database keeps only its hash."""

from flask import Blueprint, request, url_for
from flask_babel import gettext

from loko.apikeys import service
from loko.apikeys.schemas import ApiKeyCreate
from loko.auth.reveal import forget_secret, remember_secret, take_secret
from loko.web.pages import (
    REFUSED,
    attempt,
    form_input,
    page_user,
    project_page,
    redirect_with_notice,
    render_page,
    submit,
)

apikeys_ui = Blueprint("apikeys_ui", __name__)


def _purpose(project_id: str) -> str:
    return f"api-key:{project_id}"


@apikeys_ui.route("/projects/<uuid:project_id>/keys", methods=["GET", "POST"])
def keys(project_id):
    actor, project_id = page_user(), str(project_id)
    if request.method == "GET":
        created = take_secret(_purpose(project_id))
        return forget_secret(keys_page(actor, project_id, created=created))
    created = attempt(lambda: service.create_api_key(actor, project_id, **_create_input()))
    if created is REFUSED:
        return keys_page(actor, project_id)
    key, record = created
    response = redirect_with_notice(
        url_for("apikeys_ui.keys", project_id=project_id), f"API key “{record.name}” created."
    )
    return remember_secret(response, _purpose(project_id), {"key": key, "name": record.name})


@apikeys_ui.post("/projects/<uuid:project_id>/keys/<uuid:key_id>/revoke")
def revoke(project_id, key_id):
    actor, project_id = page_user(), str(project_id)
    done = submit(
        lambda: service.revoke_api_key(actor, project_id, str(key_id)),
        then=url_for("apikeys_ui.keys", project_id=project_id),
        notice=gettext("API key revoked: it no longer works."),
    )
    return done if done is not None else keys_page(actor, project_id)


def _create_input() -> dict:
    """The new-key form as the API's body: the expiry a day (at its start, UTC), the
    languages comma-separated."""
    day = request.form.get("expiresAt", "").strip()
    codes = [code.strip() for code in request.form.get("languages", "").split(",") if code.strip()]
    return form_input(
        ApiKeyCreate, extra={"expiresAt": f"{day}T00:00:00+00:00" if day else None, "languages": codes}
    )


def keys_page(actor, project_id: str, created: dict | None = None):
    view = project_page(project_id)
    return render_page(
        "apikeys/keys.html",
        view=view,
        keys=service.list_api_keys(actor, project_id),
        created=created,
        form={} if created else request.form,
    )
