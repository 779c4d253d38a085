"""Pages: a project's webhooks. Its endpoints with their last deliveries; adding one (its
secret is shown in full once, on the page the form's redirect leads to: reloading it adds no
other endpoint); enabling, disabling, deleting one; delivering a message again. Every form
redirects after it succeeds."""

from flask import Blueprint, request, url_for
from flask_babel import lazy_gettext

from loko.auth.reveal import forget_secret, remember_secret, take_secret
from loko.errors import BadRequest
from loko.events import KINDS
from loko.http import schema_instance
from loko.web.pages import REFUSED, attempt, page_user, project_page, redirect_with_notice, render_page
from loko.webhooks import service
from loko.webhooks.schemas import WebhookIn

webhooks_ui = Blueprint("webhooks_ui", __name__)
PATH = "/projects/<uuid:project_id>/webhooks"
EVENT_LABELS = {
    "values.changed": lazy_gettext("Values changed"),
    "import.finished": lazy_gettext("Import finished"),
    "key.created": lazy_gettext("Key created"),
    "key.trashed": lazy_gettext("Key moved to the trash"),
    "key.restored": lazy_gettext("Key restored"),
    "job.finished": lazy_gettext("Job finished"),
}


@webhooks_ui.route(PATH, methods=["GET", "POST"])
def webhooks(project_id):
    actor, project_id = page_user(), str(project_id)
    if request.method == "GET":
        created = take_secret(_purpose(project_id))
        return forget_secret(_page(actor, project_id, created=created))
    forms = {"create": create, "enable": enable, "disable": disable, "delete": delete, "redeliver": redeliver}
    name = request.form.get("form", "")
    if name not in forms:
        raise BadRequest(f"form: unknown webhooks form {name!r}.")
    return forms[name](actor, project_id)


def create(actor, project_id: str):
    def work():
        data = {
            "url": request.form.get("url", ""),
            "description": request.form.get("description", ""),
            "events": request.form.getlist("events"),
        }
        return service.create_webhook(actor, project_id, schema_instance(WebhookIn).load(data))

    created = attempt(work)
    if created is REFUSED:
        return _page(actor, project_id, form=request.form)
    hook, secret = created
    response = redirect_with_notice(_here(project_id), "Webhook added: copy its secret now.")
    return remember_secret(response, _purpose(project_id), {"url": hook["url"], "secret": secret})


def _purpose(project_id: str) -> str:
    return f"webhook:{project_id}"


def _switch(actor, project_id: str, enabled: bool):
    hook_id = request.form.get("webhook", "")
    if attempt(lambda: service.update_webhook(actor, project_id, hook_id, {"enabled": enabled})) is REFUSED:
        return _page(actor, project_id)
    notice = "Webhook enabled." if enabled else "Webhook disabled: it is sent nothing until enabled again."
    return redirect_with_notice(_here(project_id), notice)


def enable(actor, project_id: str):
    return _switch(actor, project_id, True)


def disable(actor, project_id: str):
    return _switch(actor, project_id, False)


def delete(actor, project_id: str):
    hook_id = request.form.get("webhook", "")
    if attempt(lambda: service.delete_webhook(actor, project_id, hook_id)) is REFUSED:
        return _page(actor, project_id)
    return redirect_with_notice(_here(project_id), "Webhook deleted, with its deliveries.")


def redeliver(actor, project_id: str):
    hook_id, delivery_id = request.form.get("webhook", ""), request.form.get("delivery", "")
    if attempt(lambda: service.redeliver(actor, project_id, hook_id, delivery_id)) is REFUSED:
        return _page(actor, project_id)
    return redirect_with_notice(_here(project_id), "The message is queued to be delivered again.")


def _here(project_id: str) -> str:
    return url_for("webhooks_ui.webhooks", project_id=project_id)


def _page(actor, project_id: str, form=None, **context):
    return render_page(
        "webhooks/webhooks.html",
        view=project_page(project_id),
        hooks=service.list_webhooks_with_deliveries(actor, project_id),
        kinds=[(kind, EVENT_LABELS[kind]) for kind in KINDS],
        event_labels=EVENT_LABELS,
        values={
            "url": (form or {}).get("url", ""),
            "description": (form or {}).get("description", ""),
            "events": (form.getlist("events") if form else ["values.changed"]),
        },
        **context,
    )
