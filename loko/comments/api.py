"""/api/projects/{id}/translations/{translationId}/comments: a key's comment thread."""

from flask import Blueprint

from loko.auth.identity import current_actor
from loko.auth.schemas import SuccessOut
from loko.comments import service
from loko.comments.schemas import CommentCreate, CommentEnvelope, CommentList, CommentPatch, CommentsQuery
from loko.http import load_body, load_query
from loko.openapi import documented

comments_api = Blueprint("comments_api", __name__)
THREAD = "/projects/<uuid:project_id>/translations/<translationId>/comments"
COMMENT = THREAD + "/<commentId>"
TAGS = ("comments",)


@comments_api.get(THREAD)
@documented(
    "A key's comments, oldest first",
    tags=TAGS,
    query=CommentsQuery,
    responses={200: CommentList},
    description="Works for a key in the trash too: its comments stay with it until it is purged.",
)
def list_comments(project_id, translationId):
    query = load_query(CommentsQuery)
    comments = service.list_comments(
        current_actor(), str(project_id), translationId, query.get("language"), query["status"]
    )
    return CommentList().dump({"comments": comments})


@comments_api.post(THREAD)
@documented(
    "Comment on a key, or on one of its languages",
    tags=TAGS,
    body=CommentCreate,
    responses={201: CommentEnvelope},
    errors=(400, 401, 403, 404, 409),
    description="404 names `language` when the project has no such language; 409 when the key "
    "is in the trash (restore it first).",
)
def add_comment(project_id, translationId):
    data = load_body(CommentCreate)
    actor = current_actor()
    comment = service.add_comment(actor, str(project_id), translationId, data["body"], data["language"])
    return CommentEnvelope().dump({"comment": comment}), 201


@comments_api.patch(COMMENT)
@documented(
    "Resolve or reopen a comment, or change its text",
    tags=TAGS,
    body=CommentPatch,
    responses={200: CommentEnvelope},
    description="Whoever may edit translations resolves and reopens; only the comment's author "
    "changes its text.",
)
def update_comment(project_id, translationId, commentId):
    changes = load_body(CommentPatch)
    comment = service.update_comment(current_actor(), str(project_id), translationId, commentId, changes)
    return CommentEnvelope().dump({"comment": comment})


@comments_api.delete(COMMENT)
@documented(
    "Delete a comment",
    tags=TAGS,
    responses={200: SuccessOut},
    errors=(401, 403, 404),
    description="The comment's author, or a project admin (organization owners and admins too).",
)
def delete_comment(project_id, translationId, commentId):
    service.delete_comment(current_actor(), str(project_id), translationId, commentId)
    return SuccessOut().dump({"success": True})
