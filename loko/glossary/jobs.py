"""The glossary's background job: after a change to an organization's glossary, the checks
run again over its projects' values, so their stored issues follow the new terms."""

from sqlalchemy import select

from loko.database import Paced, unit_of_work
from loko.extensions import db
from loko.glossary.service import RECHECK
from loko.jobs.registry import handler
from loko.projects.models import Project
from loko.quality.service import recheck_keys
from loko.translations.models import Translation

KEYS_PER_TRANSACTION = 2000  # at most; fewer when they would hold the write lock long
FIRST_KEYS = 200


@handler(RECHECK)
def recheck_organization(_context, payload: dict) -> dict:
    """Run the checks again over every live key of the organization's projects, in paced
    transactions of at most a few thousand keys (idempotent: a job run again checks them
    again)."""
    organization_id = payload["organizationId"]
    project_ids = db.session.scalars(
        select(Project.id).where(Project.organization_id == organization_id).order_by(Project.id)
    ).all()
    checked = 0
    pace = Paced(FIRST_KEYS, most=KEYS_PER_TRANSACTION)
    for project_id in project_ids:
        ids = db.session.scalars(
            select(Translation.id)
            .where(Translation.project_id == project_id, Translation.deleted_at.is_(None))
            .order_by(Translation.id)
        ).all()
        for chunk in pace.chunks(ids):
            with unit_of_work():
                recheck_keys(project_id, chunk)
            checked += len(chunk)
    return {"projects": len(project_ids), "keys": checked}
