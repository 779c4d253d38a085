"""The comment forms of the editor's details dialog: add a comment to a key, resolve or
reopen one. Each posts, then goes back to the editor showing the key (or shows the refusal
there)."""

from flask import Blueprint, url_for

from loko.comments import service
from loko.comments.schemas import CommentCreate, CommentPatch
from loko.web.pages import form_input, page_user, submit
from loko.workspace.translations_views import editor_of_key

comments_ui = Blueprint("comments_ui", __name__)
THREAD = "/projects/<uuid:project_id>/editor/keys/<translation_id>/comments"


def _back(project_id: str, translation_id: str) -> str:
    return url_for("translations_ui.editor", project_id=project_id, id=translation_id)


@comments_ui.post(THREAD)
def add_comment(project_id, translation_id):
    """The thread's form: a comment on the whole key, or on the language chosen."""
    actor, project_id = page_user(), str(project_id)

    def add():
        data = form_input(CommentCreate, drop_empty=("language",))
        return service.add_comment(actor, project_id, translation_id, data["body"], data["language"])

    done = submit(add, then=_back(project_id, translation_id), notice="Comment added.")
    return done if done is not None else editor_of_key(project_id, translation_id)


@comments_ui.post(THREAD + "/<comment_id>")
def resolve_comment(project_id, translation_id, comment_id):
    """A comment's Resolve or Reopen button (``resolved`` true or false)."""
    actor, project_id = page_user(), str(project_id)
    done = submit(
        lambda: service.update_comment(
            actor, project_id, translation_id, comment_id, form_input(CommentPatch)
        ),
        then=_back(project_id, translation_id),
        notice=lambda comment: "Comment resolved." if comment["resolved"] else "Comment reopened.",
    )
    return done if done is not None else editor_of_key(project_id, translation_id)
