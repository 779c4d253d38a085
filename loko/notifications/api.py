"""/api/notifications: the signed-in person's messages, their choices per project, and the
one-click unsubscribe of an e-mail's link."""

from flask import Blueprint, request

from loko.auth.identity import current_actor
from loko.http import load_body, load_query
from loko.notifications import service
from loko.notifications.schemas import (
    MarkedOut,
    MarkRead,
    NotificationList,
    NotificationSettingsIn,
    NotificationSettingsOut,
    NotificationsQuery,
    UnreadOut,
    UnsubscribeOut,
)
from loko.openapi import documented

notifications_api = Blueprint("notifications_api", __name__)
TAGS = ("notifications",)
SESSION = ("session",)


@notifications_api.get("/notifications")
@documented(
    "My latest notifications",
    tags=TAGS,
    auth=SESSION,
    query=NotificationsQuery,
    responses={200: NotificationList},
    errors=(400, 401, 403),
)
def list_notifications():
    query = load_query(NotificationsQuery)
    actor = current_actor()
    notes = service.list_notifications(actor, query["unread"])
    return NotificationList().dump({"notifications": notes, "unread": service.unread_count(actor)})


@notifications_api.get("/notifications/unread")
@documented(
    "How many of my notifications are unread (the bell)",
    tags=TAGS,
    auth=SESSION,
    responses={200: UnreadOut},
    errors=(401, 403),
)
def unread():
    return UnreadOut().dump({"unread": service.unread_count(current_actor())})


@notifications_api.post("/notifications/read")
@documented(
    "Mark notifications read",
    tags=TAGS,
    auth=SESSION,
    body=MarkRead,
    responses={200: MarkedOut},
    errors=(400, 401, 403),
)
def mark_read():
    data = load_body(MarkRead)
    return MarkedOut().dump({"marked": service.mark_read(current_actor(), data.get("ids"))})


@notifications_api.get("/projects/<uuid:project_id>/notification-settings")
@documented(
    "My notification choices in a project", tags=TAGS, auth=SESSION, responses={200: NotificationSettingsOut}
)
def get_settings(project_id):
    return NotificationSettingsOut().dump(service.get_settings(current_actor(), str(project_id)))


@notifications_api.put("/projects/<uuid:project_id>/notification-settings")
@documented(
    "Choose how I am told of each kind of event in a project",
    tags=TAGS,
    auth=SESSION,
    body=NotificationSettingsIn,
    responses={200: NotificationSettingsOut},
    description="Channels: app, email, daily, weekly, off. The e-mail ones answer 400 while the "
    "server has no SMTP host.",
)
def update_settings(project_id):
    data = load_body(NotificationSettingsIn)
    return NotificationSettingsOut().dump(
        service.update_settings(current_actor(), str(project_id), data["rules"])
    )


@notifications_api.post("/notifications/unsubscribe")
@documented(
    "One-click unsubscribe (RFC 8058) from an e-mail's link",
    tags=TAGS,
    auth=(),
    responses={200: UnsubscribeOut},
    errors=(404,),
    description="`token` (in the query) is the signed link of one rule: its e-mails stop, its "
    "messages stay in the app. No sign-in needed.",
)
def unsubscribe():
    return UnsubscribeOut().dump(service.unsubscribe(request.args.get("token", "")))
