"""Notifications: the core's and the workbench's events turned into one message per person.

1. ``Listener`` hears the events of a transaction (``loko.events``) and keeps them in the
   session, batched: the keys one transaction created are one event, however many.
2. Just before the commit (the session's ``before_commit``; a rollback forgets them), each
   event becomes one ``notifications.fanout`` job, written with the COMMIT (on PostgreSQL in
   its round trip): nothing is created for a change that did not commit, and nothing is
   sent inside a request.
3. The job finds who is concerned (``_recipients``), one message per person however many
   of their rules match (the most specific reason wins, and a unique index on
   ``(user_id, event_id)`` makes a rerun write nothing twice), with each person's choice
   for the project and kind (``notification_rules``; absent: ``DEFAULT_CHANNEL``).
4. Messages to be e-mailed at once go out in ``notifications.email`` jobs of up to
   ``EMAIL_BATCH`` each over one SMTP connection; the daily and weekly digests are
   scheduled jobs.
"""

import re
from datetime import timedelta

import orjson
from flask import current_app
from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import and_, func, select, update
from sqlalchemy.dialects import postgresql, sqlite

from loko import events
from loko.auth import policy
from loko.auth.models import User
from loko.comments.models import Comment
from loko.database import at_transaction_end, unit_of_work, utcnow
from loko.database.columns import new_id
from loko.errors import BadRequest, NotFound
from loko.extensions import db
from loko.jobs import service as jobs
from loko.jobs.models import SUCCEEDED, Job
from loko.notifications import mail
from loko.notifications.models import (
    CHANNELS,
    COMMENT,
    DAILY,
    DEFAULT_CHANNEL,
    EMAIL,
    EMAIL_CHANNELS,
    JOB_FINISHED,
    KEYS_NEW,
    KINDS,
    MENTION,
    OFF,
    TASK_ASSIGNED,
    TASK_DUE,
    Notification,
    NotificationRule,
)
from loko.projects.models import Project
from loko.secrets import fernet
from loko.tasks.models import OPEN, Task, TaskAssignee, TaskKey
from loko.translations.models import Translation

FANOUT_JOB = "notifications.fanout"
EMAIL_JOB = "notifications.email"
# The e-mails of accounts (invitation links, password resets), queued through ``auth.emails``.
ACCOUNT_EMAIL_JOB = "notifications.account_email"
ACCOUNT_LINK_INFO = b"loko account e-mail links v1"
DAILY_JOB = "notifications.daily"
WEEKLY_JOB = "notifications.weekly"
REMINDERS_JOB = "notifications.reminders"
EMAIL_BATCH = 100
LISTED = 50
DUE_SOON = timedelta(hours=24)
# Messages are kept this long, then deleted by the daily pruning (read or not).
KEPT = timedelta(days=90)
PRUNE_JOB = "notifications.prune"
_PENDING = "loko_notifications_pending"
HEARD = (events.KEY_CREATED, events.JOB_FINISHED, events.TASK_ASSIGNED, events.COMMENT_ADDED)
# The jobs whose starter is told when they end.
TOLD_JOBS = {"import": "Import", "pretranslate": "Pre-translation"}
# When several rules match one person, the most specific reason is the one given.
PRECEDENCE = (MENTION, TASK_ASSIGNED, TASK_DUE, COMMENT, JOB_FINISHED, KEYS_NEW)
MENTIONED = re.compile(r"(?<![\w.])@([\w.+-]+)")
KIND_WORDS = {
    KEYS_NEW: "New keys in my languages",
    TASK_ASSIGNED: "A task assigned to me",
    TASK_DUE: "My task due soon or overdue",
    COMMENT: "A comment on a key I follow",
    MENTION: "An @mention of me",
    JOB_FINISHED: "My import or pre-translation finished or failed",
}
CHANNEL_WORDS = {
    "app": "In the app",
    "email": "E-mail at once",
    "daily": "Daily digest",
    "weekly": "Weekly digest",
    "off": "Off",
}


# -- Hearing the events, and the after-commit hook ---------------------------------------------


class Listener:
    """Registered with ``loko.events`` by ``create_app``. A key created by the direct PATCH
    (an API key's single write on SQLite, which raises no events) is not announced: the
    notifications do not send that hot path through the full one (``every_write``)."""

    every_write = False

    def expect(self, project_id: str, statements) -> None:
        """What they want needs no query (``wanted``): nothing to send ahead."""

    def wanted(self, project_id: str, kind: str) -> bool:
        return kind in HEARD

    def emit(
        self, project_id: str, kind: str, items: list[dict], count: int, author: str | None = None
    ) -> None:
        pending = _pending()
        batch = pending.setdefault((project_id, kind), {"count": 0, "items": [], "authorId": author})
        if batch["authorId"] != author:
            batch["authorId"] = None  # keys of several people: each of them is told
        batch["count"] += count
        room = 5 - len(batch["items"])
        batch["items"].extend(items[: max(room, 0)])

    def emit_one(self, project_id: str, kind: str, data: dict) -> None:
        if kind == events.JOB_FINISHED and (
            data.get("kind") not in TOLD_JOBS or data.get("state") == "cancelled"
        ):
            return  # nobody is told of it: no fan-out job for nothing
        _pending()[(project_id, kind, new_id())] = {"data": data}


def _pending() -> dict:
    return db.session().info.setdefault(_PENDING, {})


def _forget(session) -> None:
    session.info.pop(_PENDING, None)


def _queue_fan_outs(session) -> None:
    """The change is about to commit: each event it raised becomes one fan-out job, written
    with the COMMIT (``jobs.enqueue_at_commit``), so it exists only if the change does. New
    keys wait ``LOKO_NEW_KEYS_WAIT_SECONDS`` and, until their job starts, the new keys of
    the same person in the project join it (its count grows): a stream of single writes
    makes one message, and one job, in that time, not one per write. Who is told is read
    when it runs (nobody, for keys that concern only their author)."""
    pending = session.info.pop(_PENDING, None)
    for key, batch in (pending or {}).items():
        author = batch.get("authorId")
        payload = {"eventId": new_id(), "projectId": key[0], "kind": key[1], **batch}
        # Of no project: the project's job list and its job.finished are its own work.
        if key[1] == events.KEY_CREATED:
            # New keys wait a little for more: one person's keys meanwhile join this message.
            wait = max(current_app.config["LOKO_NEW_KEYS_WAIT_SECONDS"], 0)
            jobs.enqueue_at_commit(
                FANOUT_JOB,
                payload,
                run_after=utcnow() + timedelta(seconds=wait),
                counted_into=f"{FANOUT_JOB}:{key[0]}:{author or '*'}",
            )
        else:
            jobs.enqueue_at_commit(FANOUT_JOB, payload)


at_transaction_end("before_commit", _queue_fan_outs)
at_transaction_end("after_rollback", _forget)

LISTENER = Listener()


def start_listening() -> None:
    events.listen(LISTENER)


# -- Who is told, and how ----------------------------------------------------------------------


def _link(endpoint: str, **values) -> str:
    """The address of a page for a message (built outside any request, as jobs run): under
    ``LOKO_PUBLIC_URL``, else the server's host and port."""
    config = current_app.config
    base = (config.get("LOKO_PUBLIC_URL") or f"http://{config['LOKO_HOST']}:{config['LOKO_PORT']}").rstrip(
        "/"
    )
    path = current_app.url_map.bind("loko").build(endpoint, values)
    return base + path


def _recipients(payload: dict) -> tuple[dict[str, str], str, str, int]:
    """``({user id: kind}, title, link, count)`` of an event: each person once, with the
    most specific of the reasons they are concerned."""
    project_id, kind = payload["projectId"], payload["kind"]
    data = payload.get("data") or {}
    project = db.session.get(Project, project_id)
    if project is None:
        return {}, "", "", 0
    reasons: dict[str, set[str]] = {}

    def add(user_ids, reason):
        for user_id in user_ids:
            if user_id:
                reasons.setdefault(user_id, set()).add(reason)

    title, link, count = "", _link("projects_ui.overview", project_id=project_id), 1
    if kind == events.KEY_CREATED:
        count = payload.get("count") or 0
        add(policy.project_translators(project_id, project.organization_id), KEYS_NEW)
        reasons.pop(payload.get("authorId"), None)  # nobody is told of their own keys
        title = f"{count} new key{'s' if count != 1 else ''} in {project.name}"
        link = _link("translations_ui.editor", project_id=project_id)
    elif kind == events.TASK_ASSIGNED:
        add(data.get("userIds") or (), TASK_ASSIGNED)
        reasons.pop(data.get("actorId"), None)
        title = f"You were assigned the task “{data.get('title')}” in {project.name}"
        link = _link("tasks_ui.task_page", project_id=project_id, task_id=data["taskId"])
    elif kind == events.JOB_FINISHED:
        what = TOLD_JOBS.get(data.get("kind"))
        job = db.session.get(Job, data.get("jobId")) if what else None
        starter = orjson.loads(job.payload).get("actor") if job is not None else None
        if starter and starter.get("type") == "user" and data.get("state") != "cancelled":
            add([starter.get("id")], JOB_FINISHED)
            outcome = "finished" if data.get("state") == SUCCEEDED else "failed"
            title = f"{what} in {project.name} {outcome}"
            link = _link("jobs_ui.jobs", project_id=project_id)
    elif kind == events.COMMENT_ADDED:
        translation_id = data.get("translationId")
        author = data.get("authorId")
        tokens = {token.lower().rstrip(".") for token in MENTIONED.findall(data.get("body") or "")}
        if tokens:
            users = db.session.execute(
                select(User.id, User.email, User.name).where(
                    policy.is_project_person(User.id, project_id, project.organization_id)
                )
            ).all()
            add(
                [
                    user_id
                    for user_id, email, name in users
                    if email.lower() in tokens
                    or email.split("@")[0].lower() in tokens
                    or name.lower().replace(" ", "") in tokens
                ],
                MENTION,
            )
        earlier = db.session.scalars(
            select(Comment.author_id).where(
                Comment.translation_id == translation_id, Comment.author_type == "user"
            )
        )
        add(earlier, COMMENT)
        assigned = db.session.scalars(
            select(TaskAssignee.user_id)
            .join(Task, Task.id == TaskAssignee.task_id)
            .join(TaskKey, TaskKey.task_id == Task.id)
            .where(TaskKey.translation_id == translation_id, Task.state == OPEN)
        )
        add(assigned, COMMENT)
        reasons.pop(author, None)
        key = db.session.get(Translation, translation_id)
        title = f"{data.get('authorName')} commented on {key.key if key else 'a key'} in {project.name}"
        link = _link("translations_ui.editor", project_id=project_id, id=translation_id)
    chosen = {
        user_id: next(reason for reason in PRECEDENCE if reason in found)
        for user_id, found in reasons.items()
    }
    return chosen, title, link, count


def _insert_ignoring_duplicates(rows: list[dict]) -> None:
    if not rows:
        return
    dialect = db.engine.dialect.name
    module = postgresql if dialect == "postgresql" else sqlite
    statement = module.insert(Notification).on_conflict_do_nothing(index_elements=["user_id", "event_id"])
    db.session.execute(statement, rows)


def _channels(project_id: str, user_ids: list[str], kinds: set[str]) -> dict[tuple[str, str], str]:
    """``{(user id, kind): channel}`` of the rules these people set (one statement)."""
    if not user_ids:
        return {}
    rows = db.session.execute(
        select(NotificationRule.user_id, NotificationRule.kind, NotificationRule.channel).where(
            NotificationRule.project_id == project_id,
            NotificationRule.kind.in_(kinds),
            NotificationRule.user_id.in_(select(User.id).where(User.id.in_(user_ids))),
        )
    )
    return {(user_id, kind): channel for user_id, kind, channel in rows}


def fan_out(payload: dict) -> dict:
    """The fan-out job's work: one message per person concerned, in one transaction, and the
    e-mail jobs of those who chose e-mail at once."""
    with unit_of_work():
        chosen, title, link, count = _recipients(payload)
        project_id = payload["projectId"]
        rules = _channels(project_id, list(chosen), set(chosen.values()))
        now, rows = utcnow(), []
        for user_id, kind in chosen.items():
            channel = rules.get((user_id, kind), DEFAULT_CHANNEL)
            if channel == OFF:
                continue
            if channel in EMAIL_CHANNELS and mail.smtp_settings(current_app.config) is None:
                channel = DEFAULT_CHANNEL
            rows.append(
                {
                    "id": new_id(),
                    "user_id": user_id,
                    "project_id": project_id,
                    "event_id": payload["eventId"],
                    "kind": kind,
                    "title": title,
                    "link": link,
                    "count": count,
                    "channel": channel,
                    "created_at": now,
                }
            )
        _insert_ignoring_duplicates(rows)
        emailed = [row["id"] for row in rows if row["channel"] == EMAIL]
        for start in range(0, len(emailed), EMAIL_BATCH):
            jobs.enqueue(EMAIL_JOB, {"ids": emailed[start : start + EMAIL_BATCH]})
        return {"messages": len(rows), "emailed": len(emailed)}


def remind_due_tasks() -> dict:
    """The reminders of open tasks due within ``DUE_SOON`` or overdue, once each."""
    now = utcnow()
    told = 0
    with unit_of_work():
        tasks = db.session.scalars(
            select(Task).where(
                Task.state == OPEN,
                Task.due_at.is_not(None),
                Task.due_at <= now + DUE_SOON,
                (Task.reminded.is_(None)) | (and_(Task.reminded == "soon", Task.due_at <= now)),
            )
        ).all()
        for task in tasks:
            overdue = task.due_at <= now
            task.reminded = "overdue" if overdue else "soon"
            assignees = list(
                db.session.scalars(select(TaskAssignee.user_id).where(TaskAssignee.task_id == task.id))
            )
            project = db.session.get(Project, task.project_id)
            title = f"The task “{task.title}” in {project.name} is {'overdue' if overdue else 'due soon'}"
            rules = _channels(task.project_id, assignees, {TASK_DUE})
            rows = []
            for user_id in assignees:
                channel = rules.get((user_id, TASK_DUE), DEFAULT_CHANNEL)
                if channel == OFF:
                    continue
                if channel in EMAIL_CHANNELS and mail.smtp_settings(current_app.config) is None:
                    channel = DEFAULT_CHANNEL
                rows.append(
                    {
                        "id": new_id(),
                        "user_id": user_id,
                        "project_id": task.project_id,
                        "event_id": f"{task.id[:24]}-{task.reminded}"[:36],
                        "kind": TASK_DUE,
                        "title": title,
                        "link": _link("tasks_ui.task_page", project_id=task.project_id, task_id=task.id),
                        "count": 1,
                        "channel": channel,
                        "created_at": now,
                    }
                )
            _insert_ignoring_duplicates(rows)
            emailed = [row["id"] for row in rows if row["channel"] == EMAIL]
            if emailed:
                jobs.enqueue(EMAIL_JOB, {"ids": emailed})
            told += len(rows)
    return {"reminded": told}


def prune(kept: timedelta = KEPT) -> int:
    """Delete the messages older than ``kept`` (one statement); how many went."""
    with unit_of_work():
        result = db.session.execute(
            Notification.__table__.delete().where(Notification.created_at < utcnow() - kept)
        )
        return result.rowcount


# -- E-mail --------------------------------------------------------------------------------------


def unsubscribe_token(user_id: str, project_id: str, kind: str) -> str:
    return _serializer().dumps([user_id, project_id, kind])


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt="loko-unsubscribe")


def _unsubscribe_links(user_id: str, project_id: str, kind: str) -> tuple[str, str]:
    """The one-click address (posted to by a mail client) and the page of a rule's link."""
    token = unsubscribe_token(user_id, project_id, kind)
    return (
        _link("notifications_api.unsubscribe", token=token),
        _link("notifications_ui.unsubscribe", token=token),
    )


def send_emails(notification_ids: list[str]) -> dict:
    """The e-mail job's work: each of these messages not sent yet, over one connection, then
    marked sent."""
    settings = mail.smtp_settings(current_app.config)
    if settings is None:
        return {"sent": 0, "reason": "SMTP is not configured"}
    rows = db.session.execute(
        select(Notification, User.email, User.name)
        .join(User, User.id == Notification.user_id)
        .where(Notification.id.in_(notification_ids), Notification.sent_at.is_(None))
    ).all()
    messages = [
        mail.build_message(
            settings,
            (name, email),
            note.title,
            [note.title],
            note.link,
            _unsubscribe_links(note.user_id, note.project_id, note.kind),
        )
        for note, email, name in rows
    ]
    db.session.rollback()
    sent = mail.send_all(settings, messages)
    with unit_of_work():
        db.session.execute(
            update(Notification)
            .where(Notification.id.in_([note.id for note, _e, _n in rows]))
            .values(sent_at=utcnow())
        )
    return {"sent": sent}


def _link_cipher():
    return fernet(current_app.config["SECRET_KEY"], ACCOUNT_LINK_INFO)


def queue_account_email(to: tuple[str, str], subject: str, lines: list[str], link: str) -> None:
    """The accounts' mailer (``auth.emails.use_mailer``): a job queued in the caller's
    transaction, its link (which carries a secret) encrypted under a key derived from
    ``LOKO_SECRET_KEY``."""
    sealed = _link_cipher().encrypt(link.encode()).decode()
    jobs.enqueue(ACCOUNT_EMAIL_JOB, {"to": list(to), "subject": subject, "lines": lines, "link": sealed})


def send_account_email(payload: dict) -> dict:
    """The mail job of an account's e-mail (an invitation, a password reset): sent now, its
    link decrypted only here. Without SMTP (turned off since it was queued) nothing is sent.
    The result names neither the address nor the link."""
    settings = mail.smtp_settings(current_app.config)
    if settings is None:
        return {"sent": 0, "reason": "SMTP is not configured"}
    name, address = payload["to"]
    link = _link_cipher().decrypt(payload["link"].encode()).decode()
    message = mail.build_message(settings, (name, address), payload["subject"], payload["lines"], link)
    return {"sent": mail.send_all(settings, [message])}


def send_digests(channel: str) -> dict:
    """The daily or weekly digest: one e-mail per person with messages of ``channel`` not
    sent yet, counting them by kind and project; then they are marked sent."""
    settings = mail.smtp_settings(current_app.config)
    if settings is None:
        return {"sent": 0, "reason": "SMTP is not configured"}
    rows = db.session.execute(
        select(
            Notification.user_id,
            User.email,
            User.name,
            Project.name,
            Notification.kind,
            func.count(),
            func.sum(Notification.count),
            func.max(Notification.id),
        )
        .join(User, User.id == Notification.user_id)
        .join(Project, Project.id == Notification.project_id)
        .where(Notification.channel == channel, Notification.sent_at.is_(None))
        .group_by(Notification.user_id, User.email, User.name, Project.name, Notification.kind)
        .order_by(Notification.user_id, Project.name, Notification.kind)
    ).all()
    cutoff = utcnow()
    db.session.rollback()
    people: dict[str, dict] = {}
    for user_id, email, name, project_name, kind, messages, things, _last in rows:
        person = people.setdefault(user_id, {"to": (name, email), "lines": [], "total": 0})
        person["total"] += messages
        what = KIND_WORDS.get(kind, kind)
        extra = f" ({things} keys)" if kind == KEYS_NEW else ""
        person["lines"].append(f"{project_name}: {what}: {messages}{extra}")
    word = "Daily" if channel == DAILY else "Weekly"
    messages = [
        mail.build_message(
            settings,
            person["to"],
            f"{word} digest from Loko: {person['total']} notification{'s' if person['total'] != 1 else ''}",
            person["lines"],
            _link("notifications_ui.notifications"),
        )
        for person in people.values()
    ]
    sent = mail.send_all(settings, messages)
    with unit_of_work():
        db.session.execute(
            update(Notification)
            .where(
                Notification.channel == channel,
                Notification.sent_at.is_(None),
                Notification.created_at <= cutoff,
                Notification.user_id.in_(list(people)),
            )
            .values(sent_at=cutoff)
        )
    return {"sent": sent}


# -- The reads and the choices of the signed-in person -------------------------------------------


def describe(note: Notification, project_name: str | None = None) -> dict:
    return {
        "id": note.id,
        "projectId": note.project_id,
        "projectName": project_name,
        "kind": note.kind,
        "title": note.title,
        "link": note.link,
        "count": note.count,
        "createdAt": note.created_at,
        "read": note.read_at is not None,
    }


def unread_count(actor) -> int:
    """The signed-in person's unread messages (the bell): one count on a partial index."""
    user = policy.require_user(actor)
    return db.session.execute(
        select(func.count())
        .select_from(Notification)
        .where(Notification.user_id == user.id, Notification.read_at.is_(None))
    ).scalar_one()


def list_notifications(actor, unread_only: bool = False, limit: int = LISTED) -> list[dict]:
    user = policy.require_user(actor)
    query = (
        select(Notification, Project.name)
        .join(Project, Project.id == Notification.project_id)
        .where(Notification.user_id == user.id)
    )
    if unread_only:
        query = query.where(Notification.read_at.is_(None))
    rows = db.session.execute(
        query.order_by(Notification.created_at.desc(), Notification.id.desc()).limit(limit)
    )
    return [describe(note, name) for note, name in rows]


def mark_read(actor, ids: list[str] | None) -> int:
    """Mark these messages (None: all) of the signed-in person read; returns how many."""
    user = policy.require_user(actor)
    with unit_of_work():
        query = update(Notification).where(Notification.user_id == user.id, Notification.read_at.is_(None))
        if ids is not None:
            query = query.where(Notification.id.in_(ids))
        result = db.session.execute(
            query.values(read_at=utcnow()).execution_options(
                synchronize_session=False, preserve_rowcount=True
            )
        )
        return result.rowcount


def email_available() -> bool:
    return mail.smtp_settings(current_app.config) is not None


def get_settings(actor, project_id: str) -> dict:
    """The signed-in person's choice for each kind in a project (the default where none)."""
    user = policy.require_user(actor)
    policy.require_permission(actor, project_id, policy.VIEW_TRANSLATIONS)
    chosen = dict(
        db.session.execute(
            select(NotificationRule.kind, NotificationRule.channel).where(
                NotificationRule.user_id == user.id, NotificationRule.project_id == project_id
            )
        ).all()
    )
    return {
        "emailAvailable": email_available(),
        "rules": {kind: chosen.get(kind, DEFAULT_CHANNEL) for kind in KINDS},
    }


def update_settings(actor, project_id: str, rules: dict[str, str]) -> dict:
    """Set the signed-in person's channel per kind in a project. BadRequest naming the kind
    for an e-mail channel while no SMTP server is configured."""
    user = policy.require_user(actor)
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.VIEW_TRANSLATIONS)
        for kind, channel in rules.items():
            if kind not in KINDS:
                raise BadRequest(f"rules.{kind}: not a kind of notification.")
            if channel not in CHANNELS:
                raise BadRequest(f"rules.{kind}: one of {', '.join(CHANNELS)}.")
            if channel in EMAIL_CHANNELS and not email_available():
                raise BadRequest(f"rules.{kind}: e-mail is not set up on this server (no SMTP host).")
            db.session.merge(
                NotificationRule(user_id=user.id, project_id=project_id, kind=kind, channel=channel)
            )
    return get_settings(actor, project_id)


def unsubscribe(token: str) -> dict:
    """A one-click unsubscribe: the rule the signed link names stops its e-mails (its
    messages stay in the app). NotFound for a link that is not one of ours."""
    try:
        user_id, project_id, kind = _serializer().loads(token)
    except (BadSignature, ValueError, TypeError):
        raise NotFound("token: this unsubscribe link is not valid.") from None
    if (
        kind not in KINDS
        or db.session.get(User, user_id) is None
        or db.session.get(Project, project_id) is None
    ):
        raise NotFound("token: this unsubscribe link is not valid.")
    with unit_of_work():
        db.session.merge(NotificationRule(user_id=user_id, project_id=project_id, kind=kind, channel="app"))
        name = db.session.get(Project, project_id).name
    return {"projectName": name, "kind": kind, "channel": "app"}
