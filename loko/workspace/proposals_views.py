"""The proposal forms of the editor's details dialog: propose a text for the key in a
language, vote on a proposal. Each posts, then goes back to the editor showing the key (or
shows the refusal there)."""

from flask import Blueprint, url_for
from flask_babel import gettext
from marshmallow import fields, validate

from loko.fields import ApiSchema
from loko.proposals import service
from loko.proposals.schemas import ProposalCreate
from loko.web.pages import form_input, page_user, submit
from loko.workspace.translations_views import editor_of_key

proposals_editor_ui = Blueprint("proposals_editor_ui", __name__)
KEY = "/projects/<uuid:project_id>/editor/keys/<translation_id>/proposals"


class VoteForm(ApiSchema):
    value = fields.Integer(required=True, validate=validate.OneOf((1, -1, 0)))


def _back(project_id: str, translation_id: str) -> str:
    return url_for("translations_ui.editor", project_id=project_id, id=translation_id)


@proposals_editor_ui.post(KEY)
def propose(project_id, translation_id):
    actor, project_id = page_user(), str(project_id)

    def add():
        data = form_input(ProposalCreate, extra={"translationId": translation_id})
        return service.propose(actor, project_id, translation_id, data["language"], data["text"])

    done = submit(
        add,
        then=_back(project_id, translation_id),
        notice=lambda made: (
            gettext("Proposal added.")
            if made[1]
            else gettext("That text was proposed already: your vote is counted.")
        ),
    )
    return done if done is not None else editor_of_key(project_id, translation_id)


@proposals_editor_ui.post(KEY + "/<proposal_id>/vote")
def vote(project_id, translation_id, proposal_id):
    actor, project_id = page_user(), str(project_id)
    done = submit(
        lambda: service.vote(actor, project_id, proposal_id, form_input(VoteForm)["value"]),
        then=_back(project_id, translation_id),
        notice=gettext("Vote saved."),
    )
    return done if done is not None else editor_of_key(project_id, translation_id)
