"""Comments' use cases: a key's thread (all of it, or one language's, open or resolved),
adding a comment, resolving and reopening it, changing its text, deleting it; and the open
counts of a page of keys, in one statement, for the editor's grid.

A comment belongs to its key whatever the key's state: the trash keeps it (it is read,
resolved and deleted there too, but nothing new is added to a trashed key) and purging the
key deletes it (the foreign key cascades)."""

from sqlalchemy import func, select

from loko import events
from loko.auth import policy
from loko.auth.actors import Actor
from loko.comments.models import Comment
from loko.database import unit_of_work, utcnow
from loko.errors import Conflict, NotFound
from loko.extensions import db
from loko.languages.models import ProjectLanguage
from loko.translations.models import Translation

KEY_NOT_FOUND = "translationId: no translation with this id in this project."
COMMENT_NOT_FOUND = "commentId: no comment with this id on this key."
TRASHED = "translationId: the key is in the trash; restore it to comment on it."


def _who(kind: str | None, actor_id: str | None, name: str | None) -> dict | None:
    return None if kind is None else {"type": kind, "id": actor_id, "name": name}


def describe(comment: Comment) -> dict:
    """A comment as the API shows it."""
    return {
        "id": comment.id,
        "translationId": comment.translation_id,
        "language": comment.language_code,
        "body": comment.body,
        "author": _who(comment.author_type, comment.author_id, comment.author_name),
        "createdAt": comment.created_at,
        "editedAt": comment.edited_at,
        "resolved": comment.resolved_at is not None,
        "resolvedAt": comment.resolved_at,
        "resolvedBy": _who(comment.resolved_by_type, comment.resolved_by_id, comment.resolved_by_name),
    }


def _name(actor: Actor) -> str:
    return (actor.name or getattr(actor, "email", "") or actor.kind)[:128]


def _key_state(project_id: str, translation_id: str):
    """``deleted_at`` of the project's key (None while active); NotFound for no such key."""
    row = db.session.execute(
        select(Translation.deleted_at).where(
            Translation.id == translation_id, Translation.project_id == project_id
        )
    ).first()
    if row is None:
        raise NotFound(KEY_NOT_FOUND)
    return row.deleted_at


def _comment(project_id: str, translation_id: str, comment_id: str) -> Comment:
    comment = db.session.get(Comment, comment_id)
    if comment is None or (comment.project_id, comment.translation_id) != (project_id, translation_id):
        _key_state(project_id, translation_id)
        raise NotFound(COMMENT_NOT_FOUND)
    return comment


def list_comments(
    actor, project_id: str, translation_id: str, language: str | None = None, status: str = "all"
) -> list[dict]:
    """A key's comments, oldest first: those about ``language`` only when given, and the
    open or resolved ones only with ``status``. NotFound for a key not in this project."""
    policy.require_permission(actor, project_id, policy.VIEW_COMMENTS)
    _key_state(project_id, translation_id)
    query = select(Comment).where(Comment.translation_id == translation_id)
    if language is not None:
        query = query.where(Comment.language_code == language)
    if status == "open":
        query = query.where(Comment.resolved_at.is_(None))
    elif status == "resolved":
        query = query.where(Comment.resolved_at.is_not(None))
    comments = db.session.scalars(query.order_by(Comment.created_at, Comment.id))
    return [describe(comment) for comment in comments]


def add_comment(actor, project_id: str, translation_id: str, body: str, language: str | None = None) -> dict:
    """A new open comment on an active key, about the whole key or one of the project's
    languages. NotFound for a key or language not in this project, Conflict for a key in
    the trash."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.WRITE_COMMENTS)
        if _key_state(project_id, translation_id) is not None:
            raise Conflict(TRASHED)
        if language is not None and db.session.get(ProjectLanguage, (project_id, language)) is None:
            raise NotFound(f"language: the project has no language {language!r}.")
        comment = Comment(
            project_id=project_id,
            translation_id=translation_id,
            language_code=language,
            author_type=actor.kind,
            author_id=actor.id,
            author_name=_name(actor),
            body=body,
            created_at=utcnow(),
        )
        db.session.add(comment)
        db.session.flush()
        events.emit_one(
            project_id,
            events.COMMENT_ADDED,
            {
                "commentId": comment.id,
                "translationId": translation_id,
                "language": language,
                "body": body,
                "authorId": actor.id,
                "authorName": comment.author_name,
            },
        )
        return describe(comment)


def update_comment(actor, project_id: str, translation_id: str, comment_id: str, changes: dict) -> dict:
    """Resolve or reopen a comment (``resolved``), or change its text (``body``, its author
    only). NotFound for a key or comment not in this project, Forbidden as the policy says."""
    with unit_of_work():
        permissions = policy.require_permission(actor, project_id, policy.WRITE_COMMENTS)
        comment = _comment(project_id, translation_id, comment_id)
        now = utcnow()
        if "body" in changes and changes["body"] != comment.body:
            policy.require_comment_edit(actor, permissions, comment.author_type, comment.author_id)
            comment.body = changes["body"]
            comment.edited_at = now
        if changes.get("resolved") is True and comment.resolved_at is None:
            comment.resolved_at = now
            comment.resolved_by_type, comment.resolved_by_id = actor.kind, actor.id
            comment.resolved_by_name = _name(actor)
        elif changes.get("resolved") is False and comment.resolved_at is not None:
            comment.resolved_at = None
            comment.resolved_by_type = comment.resolved_by_id = comment.resolved_by_name = None
        db.session.flush()
        return describe(comment)


def delete_comment(actor, project_id: str, translation_id: str, comment_id: str) -> None:
    """Delete a comment: its author, or whoever may change the project's settings. NotFound
    for a key or comment not in this project."""
    with unit_of_work():
        permissions = policy.require_permission(actor, project_id, policy.VIEW_COMMENTS)
        comment = _comment(project_id, translation_id, comment_id)
        policy.require_comment_removal(actor, permissions, comment.author_type, comment.author_id)
        db.session.delete(comment)


def open_counts(translation_ids: list[str]) -> dict[str, int]:
    """``{translation id: open comments}`` of the keys that have any, in one statement (the
    caller has already checked that the keys may be seen)."""
    if not translation_ids:
        return {}
    rows = db.session.execute(
        select(Comment.translation_id, func.count())
        .where(Comment.translation_id.in_(translation_ids), Comment.resolved_at.is_(None))
        .group_by(Comment.translation_id)
    )
    return dict(rows.all())


def active_key_id(actor, project_id: str, key: str, file_name: str) -> str:
    """The id of the active key ``key`` of ``file_name`` (for callers that name keys, such
    as MCP tools); NotFound otherwise."""
    policy.require_permission(actor, project_id, policy.VIEW_COMMENTS)
    translation_id = db.session.execute(
        select(Translation.id).where(
            Translation.project_id == project_id,
            Translation.file_name == file_name,
            Translation.key == key,
            Translation.deleted_at.is_(None),
        )
    ).scalar_one_or_none()
    if translation_id is None:
        raise NotFound(f"key: no active translation {key!r} in the file {file_name!r}.")
    return translation_id
