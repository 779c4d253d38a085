"""Tasks' use cases: make one over the keys an editor filter shows or a selection (frozen:
their ids stored in one ``INSERT ... SELECT``), list and read them with their progress (one
aggregate statement for any number of tasks), change, close and reopen them, a person's
own open tasks, and the report of who did how many words (from the history).

Progress is never ticked: a translate task is done when every key has a value in its
language, a review task when every such value is reviewed. An assignee's temporary right
to do the work is decided in ``auth.policy`` (``require_value_work``) from these tables and
ends when the task is closed."""

import csv
import io
from collections.abc import Callable
from datetime import datetime

from sqlalchemy import and_, case, func, insert, literal, select

from loko import events
from loko.auth import policy
from loko.auth.actors import UserActor
from loko.auth.models import User
from loko.database import unit_of_work, utcnow
from loko.errors import BadRequest, NotFound
from loko.extensions import db
from loko.languages.models import ProjectLanguage
from loko.projects.models import Project
from loko.tasks.models import CLOSED, OPEN, TRANSLATE, Task, TaskAssignee, TaskKey
from loko.translations.models import REVIEWED, HistoryEntry, Translation, TranslationValue

TASK_NOT_FOUND = "taskId: no task with this id in this project."
OVERLAPS_LISTED = 50
MINE_LISTED = 100

# The keys an editor filter shows (``workspace.editor.task_keys_query``), plugged in by
# ``create_app``: the editor's filters live above the tasks.
_key_filter: list[Callable] = []


def use_key_filter(function: Callable) -> None:
    _key_filter[:] = [function]


def task_key_ids(task_id: str):
    """The ids of a task's keys, as a select (for the editor's ``task`` filter)."""
    return select(TaskKey.translation_id).where(TaskKey.task_id == task_id)


def task_of(project_id: str, task_id: str) -> dict | None:
    """A task of the project as the policy and the editor need it, or None."""
    task = db.session.get(Task, task_id)
    if task is None or task.project_id != project_id:
        return None
    return _describe(task, _assignees([task.id]).get(task.id, []), None)


def _assignees(task_ids: list[str]) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {}
    if not task_ids:
        return found
    rows = db.session.execute(
        select(TaskAssignee.task_id, User.id, User.name, User.email)
        .join(User, User.id == TaskAssignee.user_id)
        .where(TaskAssignee.task_id.in_(task_ids))
        .order_by(User.name, User.email)
    )
    for task_id, user_id, name, email in rows:
        found.setdefault(task_id, []).append({"id": user_id, "name": name, "email": email})
    return found


def progress(task_ids: list[str]) -> dict[str, dict]:
    """``{task id: {keys, translated, reviewed, done}}`` of the tasks, in one aggregate
    statement: their keys still active, those with a value in the task's language, and
    those whose value is reviewed."""
    if not task_ids:
        return {}
    rows = db.session.execute(
        select(
            Task.id,
            Task.kind,
            func.count(Translation.id),
            func.count(TranslationValue.translation_id),
            func.count(case((TranslationValue.state == REVIEWED, 1))),
        )
        .select_from(Task)
        .join(TaskKey, TaskKey.task_id == Task.id, isouter=True)
        .join(
            Translation,
            and_(Translation.id == TaskKey.translation_id, Translation.deleted_at.is_(None)),
            isouter=True,
        )
        .join(
            TranslationValue,
            and_(
                TranslationValue.translation_id == Translation.id,
                TranslationValue.language_code == Task.language_code,
            ),
            isouter=True,
        )
        .where(Task.id.in_(task_ids))
        .group_by(Task.id, Task.kind)
    )
    found = {}
    for task_id, kind, keys, translated, reviewed in rows:
        finished = translated if kind == TRANSLATE else reviewed
        goal = keys if kind == TRANSLATE else translated
        found[task_id] = {
            "keys": keys,
            "translated": translated,
            "reviewed": reviewed,
            "done": goal > 0 and finished >= goal,
            "percent": 100 if goal == 0 else int(100 * finished / goal),
        }
    return found


def _describe(task: Task, assignees: list[dict], task_progress: dict | None) -> dict:
    return {
        "id": task.id,
        "projectId": task.project_id,
        "kind": task.kind,
        "language": task.language_code,
        "title": task.title,
        "description": task.description,
        "dueAt": task.due_at,
        "state": task.state,
        "keyCount": task.key_count,
        "createdBy": {"id": task.created_by_id, "name": task.created_by_name},
        "createdAt": task.created_at,
        "closedAt": task.closed_at,
        "assignees": assignees,
        "assigneeIds": [person["id"] for person in assignees],
        "progress": task_progress,
    }


def _describe_all(tasks: list[Task]) -> list[dict]:
    ids = [task.id for task in tasks]
    people, done = _assignees(ids), progress(ids)
    return [_describe(task, people.get(task.id, []), done.get(task.id)) for task in tasks]


def _task(project_id: str, task_id: str) -> Task:
    task = db.session.get(Task, task_id)
    if task is None or task.project_id != project_id:
        raise NotFound(TASK_NOT_FOUND)
    return task


def list_tasks(actor, project_id: str, state: str | None = None) -> list[dict]:
    """The project's tasks, open ones first, newest first."""
    policy.require_permission(actor, project_id, policy.VIEW_TASKS)
    query = select(Task).where(Task.project_id == project_id)
    if state in (OPEN, CLOSED):
        query = query.where(Task.state == state)
    tasks = db.session.scalars(query.order_by(Task.state.desc(), Task.created_at.desc(), Task.id)).all()
    return _describe_all(list(tasks))


def get_task(actor, project_id: str, task_id: str) -> dict:
    policy.require_permission(actor, project_id, policy.VIEW_TASKS)
    return _describe_all([_task(project_id, task_id)])[0]


def my_tasks(actor) -> list[dict]:
    """The signed-in person's open tasks in every project, soonest due first, each with its
    project's name."""
    user = policy.require_user(actor)
    rows = db.session.execute(
        select(Task, Project.name)
        .join(TaskAssignee, TaskAssignee.task_id == Task.id)
        .join(Project, Project.id == Task.project_id)
        .where(TaskAssignee.user_id == user.id, Task.state == OPEN)
        .order_by(Task.due_at.is_(None), Task.due_at, Task.created_at)
        .limit(MINE_LISTED)
    ).all()
    described = _describe_all([task for task, _name in rows])
    for item, (_task_row, name) in zip(described, rows, strict=True):
        item["projectName"] = name
    return described


def _members(project: Project, user_ids: list[str]) -> None:
    """BadRequest naming the first id that is not one of the project's people (a member of
    it, or an owner or admin of its organization)."""
    if not user_ids:
        return
    members = policy.project_people(project.id, project.organization_id, user_ids)
    for index, user_id in enumerate(user_ids):
        if user_id not in members:
            raise BadRequest(f"assignees.{index}: {user_id!r} is not a member of this project.")


def _is_project_person(project: Project):
    """The condition on ``User.id``: one of the project's people (whom a task may be given to)."""
    return policy.is_project_person(User.id, project.id, project.organization_id)


def _people_by_email(project: Project, emails: list[str]) -> list[str]:
    """The ids of the project's people with these e-mails, in order; BadRequest naming the
    first e-mail none of them has (``assigneeEmails.N``)."""
    wanted = [email.strip().lower() for email in emails]
    if not wanted:
        return []
    found = dict(
        db.session.execute(
            select(func.lower(User.email), User.id).where(
                func.lower(User.email).in_(wanted), _is_project_person(project)
            )
        ).all()
    )
    for index, email in enumerate(wanted):
        if email not in found:
            raise BadRequest(f"assigneeEmails.{index}: nobody of this project has the e-mail {email!r}.")
    return [found[email] for email in wanted]


def _keys_query(project_id: str, data: dict):
    if data.get("keys") is not None:
        return select(Translation.id).where(
            Translation.project_id == project_id,
            Translation.deleted_at.is_(None),
            Translation.id.in_(data["keys"]),
        )
    if not _key_filter:
        raise BadRequest("filter: choosing keys by a filter is not available.")
    return _key_filter[0](project_id, data.get("filter") or {}, data["language"])


def overlaps(project_id: str, kind: str, language: str, keys_query, task_id: str | None = None) -> list[dict]:
    """The keys of ``keys_query`` already in another open task of the same kind and language
    (shown when a task is made, never silently left out): the first ones, with their task."""
    query = (
        select(Translation.id, Translation.file_name, Translation.key, Task.id, Task.title)
        .join(TaskKey, TaskKey.translation_id == Translation.id)
        .join(Task, Task.id == TaskKey.task_id)
        .where(
            Translation.id.in_(keys_query),
            Task.project_id == project_id,
            Task.kind == kind,
            Task.language_code == language,
            Task.state == OPEN,
        )
        .order_by(Translation.file_name, Translation.key)
        .limit(OVERLAPS_LISTED)
    )
    if task_id is not None:
        query = query.where(Task.id != task_id)
    return [
        {"translationId": tid, "fileName": file_name, "key": key, "taskId": other, "taskTitle": title}
        for tid, file_name, key, other, title in db.session.execute(query)
    ]


def create_task(actor, project_id: str, data: dict) -> dict:
    """Make a task over the keys ``data["keys"]`` (ids) or those ``data["filter"]`` shows,
    frozen now. BadRequest for a language the project lacks, an assignee who is not one of
    its people, or no key; ``dryRun`` answers the count and the overlaps and makes nothing.
    Returns ``{task, overlaps}``."""
    with unit_of_work():
        project, permissions = policy.authorize(actor, project_id, policy.MANAGE_TASKS)
        language = data["language"]
        if db.session.get(ProjectLanguage, (project_id, language)) is None:
            raise BadRequest(f"language: the project has no language {language!r}.")
        assignees = list(dict.fromkeys(data.get("assignees") or ()))
        _members(project, assignees)
        by_email = _people_by_email(project, data.get("assigneeEmails") or [])
        assignees = list(dict.fromkeys([*assignees, *by_email]))
        policy.require_task_grant(actor, project_id, permissions, data["kind"], language, assignees)
        keys_query = _keys_query(project_id, data)
        count = db.session.execute(select(func.count()).select_from(keys_query.subquery())).scalar_one()
        if count == 0:
            raise BadRequest("keys: no active key matches; a task needs at least one key.")
        found = overlaps(project_id, data["kind"], language, keys_query)
        if data.get("dryRun"):
            db.session.rollback()
            return {"task": None, "keyCount": count, "overlaps": found}
        task = Task(
            project_id=project_id,
            kind=data["kind"],
            language_code=language,
            title=data["title"],
            description=data.get("description") or "",
            due_at=data.get("dueAt"),
            state=OPEN,
            key_count=count,
            created_by_id=actor.id if isinstance(actor, UserActor) else None,
            created_by_name=(actor.name or "")[:128],
            created_at=utcnow(),
        )
        db.session.add(task)
        db.session.flush()
        ids = keys_query.subquery()
        db.session.execute(
            insert(TaskKey).from_select(
                ["task_id", "translation_id"], select(literal(task.id), next(iter(ids.c)))
            )
        )
        if assignees:
            db.session.execute(insert(TaskAssignee), [{"task_id": task.id, "user_id": u} for u in assignees])
            _announce_assigned(actor, task, assignees)
        events.audited(actor, project_id, "task.created", events.Target("task", task.id, task.title))
        described = _describe_all([task])[0]
        return {"task": described, "keyCount": count, "overlaps": found}


def _announce_assigned(actor, task: Task, user_ids: list[str]) -> None:
    events.emit_one(
        task.project_id,
        events.TASK_ASSIGNED,
        {
            "taskId": task.id,
            "title": task.title,
            "kind": task.kind,
            "language": task.language_code,
            "userIds": list(user_ids),
            "actorId": actor.id if isinstance(actor, UserActor) else None,
        },
    )


def update_task(actor, project_id: str, task_id: str, changes: dict) -> dict:
    """Change a task's title, description, due date or assignees, or close or reopen it
    (``state``). Closing ends its assignees' temporary right; newly assigned people are
    told. NotFound for no such task, BadRequest for an assignee not of the project."""
    with unit_of_work():
        project, permissions = policy.authorize(actor, project_id, policy.MANAGE_TASKS)
        task = _task(project_id, task_id)
        policy.require_task_grant(actor, project_id, permissions, task.kind, task.language_code, [])
        for name, column in (("title", "title"), ("description", "description"), ("dueAt", "due_at")):
            if name in changes:
                setattr(task, column, changes[name] if name != "description" else changes[name] or "")
        if "dueAt" in changes:
            task.reminded = None
        if "state" in changes and changes["state"] != task.state:
            if changes["state"] == OPEN and "assignees" not in changes:
                # Reopening gives its assignees their right back: a key only what it may give.
                policy.require_task_grant(
                    actor, project_id, permissions, task.kind, task.language_code, assignee_ids(task.id)
                )
            task.state = changes["state"]
            task.closed_at = utcnow() if task.state == CLOSED else None
            events.audited(
                actor,
                project_id,
                f"task.{'closed' if task.state == CLOSED else 'reopened'}",
                events.Target("task", task.id, task.title),
            )
        if "assignees" in changes:
            wanted = list(dict.fromkeys(changes["assignees"]))
            _members(project, wanted)
            current = set(
                db.session.scalars(select(TaskAssignee.user_id).where(TaskAssignee.task_id == task.id))
            )
            gone, added = current - set(wanted), [u for u in wanted if u not in current]
            policy.require_task_grant(actor, project_id, permissions, task.kind, task.language_code, added)
            if gone:
                db.session.execute(
                    TaskAssignee.__table__.delete().where(
                        TaskAssignee.task_id == task.id, TaskAssignee.user_id.in_(gone)
                    )
                )
            if added:
                db.session.execute(insert(TaskAssignee), [{"task_id": task.id, "user_id": u} for u in added])
                if task.state == OPEN:
                    _announce_assigned(actor, task, added)
        db.session.flush()
        return _describe_all([task])[0]


def _words(text: str | None) -> int:
    return len(text.split()) if text else 0


def report_rows(actor, project_id: str, task_id: str) -> list[dict]:
    """Who did how much of a task, from the history of its keys in its language since it was
    made (until it was closed): values written and their words per person, and the values
    each person last reviewed."""
    policy.require_permission(actor, project_id, policy.VIEW_TASKS)
    task = _task(project_id, task_id)
    until: datetime | None = task.closed_at
    query = select(HistoryEntry.actor_name, HistoryEntry.new_value).where(
        HistoryEntry.project_id == project_id,
        HistoryEntry.language == task.language_code,
        HistoryEntry.translation_id.in_(task_key_ids(task.id)),
        HistoryEntry.action.in_(("created", "updated")),
        HistoryEntry.created_at >= task.created_at,
    )
    if until is not None:
        query = query.where(HistoryEntry.created_at <= until)
    people: dict[str, dict] = {}
    for name, value in db.session.execute(query):
        person = people.setdefault(name or "", {"person": name or "", "values": 0, "words": 0, "reviewed": 0})
        person["values"] += 1
        person["words"] += _words(value)
    reviewed = db.session.execute(
        select(TranslationValue.review_changed_by, func.count())
        .where(
            TranslationValue.translation_id.in_(task_key_ids(task.id)),
            TranslationValue.language_code == task.language_code,
            TranslationValue.state == REVIEWED,
            TranslationValue.review_changed_at >= task.created_at,
        )
        .group_by(TranslationValue.review_changed_by)
    )
    for name, count in reviewed:
        person = people.setdefault(name or "", {"person": name or "", "values": 0, "words": 0, "reviewed": 0})
        person["reviewed"] = count
    return sorted(people.values(), key=lambda person: (-person["words"], person["person"]))


def report_csv(actor, project_id: str, task_id: str) -> str:
    """``report_rows`` as CSV (a header, then one line per person)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["person", "values written", "words", "values reviewed"])
    for row in report_rows(actor, project_id, task_id):
        writer.writerow([_cell(row["person"]), row["values"], row["words"], row["reviewed"]])
    return out.getvalue()


def _cell(text: str) -> str:
    """A cell a spreadsheet will not run as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def due_tasks(before: datetime) -> list[Task]:
    """Open tasks due before ``before`` with assignees, not yet reminded of it (for the
    notifications' reminders)."""
    return list(
        db.session.scalars(
            select(Task).where(Task.state == OPEN, Task.due_at.is_not(None), Task.due_at <= before)
        )
    )


def assignee_ids(task_id: str) -> list[str]:
    return list(db.session.scalars(select(TaskAssignee.user_id).where(TaskAssignee.task_id == task_id)))


def assignable_people(actor, project_id: str) -> list[dict]:
    """The people a task of the project may be given to (its members and its organization's
    owners and admins), for the board's form."""
    project, _permissions = policy.authorize(actor, project_id, policy.MANAGE_TASKS)
    rows = db.session.execute(
        select(User.id, User.name, User.email)
        .where(_is_project_person(project))
        .order_by(User.name, User.email)
    )
    return [{"id": user_id, "name": name, "email": email} for user_id, name, email in rows]
