"""Pages: my notifications (marked read from here), my choices in a project, and the page an
e-mail's unsubscribe link opens (no sign-in needed)."""

from flask import Blueprint, request, url_for
from flask_babel import gettext, ngettext

from loko.notifications import service
from loko.notifications.models import CHANNELS, EMAIL_CHANNELS, KINDS
from loko.web.pages import page_user, project_page, render_page, submit

notifications_ui = Blueprint("notifications_ui", __name__)


@notifications_ui.get("/notifications")
def notifications():
    actor = page_user()
    return render_page(
        "notifications/list.html",
        notes=service.list_notifications(actor),
        unread=service.unread_count(actor),
    )


@notifications_ui.post("/notifications/read")
def mark_read():
    actor = page_user()
    done = submit(
        lambda: service.mark_read(actor, None),
        then=url_for("notifications_ui.notifications"),
        notice=lambda count: ngettext("%(num)s marked read.", "%(num)s marked read.", count),
    )
    return done if done is not None else notifications()


@notifications_ui.get("/projects/<uuid:project_id>/notifications")
def settings(project_id):
    return _settings(str(project_id))


def _settings(project_id: str):
    view = project_page(project_id)
    return render_page(
        "notifications/settings.html",
        view=view,
        settings=service.get_settings(page_user(), project_id),
        kinds=KINDS,
        channels=CHANNELS,
        email_channels=EMAIL_CHANNELS,
        kind_words=service.KIND_WORDS,
        channel_words=service.CHANNEL_WORDS,
    )


@notifications_ui.post("/projects/<uuid:project_id>/notifications")
def save_settings(project_id):
    project_id = str(project_id)
    rules = {kind: request.form[kind] for kind in KINDS if request.form.get(kind)}
    done = submit(
        lambda: service.update_settings(page_user(), project_id, rules),
        then=url_for("notifications_ui.settings", project_id=project_id),
        notice=gettext("Notification choices saved."),
    )
    return done if done is not None else _settings(project_id)


@notifications_ui.get("/notifications/unsubscribe")
def unsubscribe():
    return render_page("notifications/unsubscribe.html", token=request.args.get("token", ""), done=None)


@notifications_ui.post("/notifications/unsubscribe")
def confirm_unsubscribe():
    token = request.form.get("token", "")
    done = service.unsubscribe(token)
    return render_page(
        "notifications/unsubscribe.html", token=token, done=done, kind_words=service.KIND_WORDS
    )
