"""Public projects' use cases: the source texts and current values of one language as a public
visitor (and every reader) reads them, and the people an admin blocked from proposing.

Who is a public visitor, what they read and what a block refuses are decided in
``loko.auth.policy``; the rate limit of their proposals and votes is ``limits.py``."""

from sqlalchemy import and_, select
from sqlalchemy.orm import aliased

from loko.auth import policy
from loko.auth.models import User
from loko.database import unit_of_work, utcnow
from loko.errors import NotFound
from loko.extensions import db
from loko.languages.models import ProjectLanguage
from loko.projects.models import Project, ProposalBlock
from loko.translations.models import Translation, TranslationValue

USER_NOT_FOUND = "userId: no user with this id."


def list_texts(actor, project_id: str, language: str, file_name: str | None, limit: int, offset: int) -> dict:
    """The active keys' source texts and current values in ``language``, by file and key:
    ``{sourceLanguage, language, items: [{translationId, key, fileName, source, value}],
    nextOffset}``. NotFound for a language the project does not have or the caller may not
    read (a public visitor reads their own languages)."""
    permissions = policy.require_permission(actor, project_id, policy.VIEW_PUBLIC_TEXTS)
    if db.session.get(ProjectLanguage, (project_id, language)) is None:
        raise NotFound(f"language: the project has no language {language!r}.")
    policy.require_readable_language(permissions, language)
    source_code = db.session.execute(
        select(Project.source_language).where(Project.id == project_id)
    ).scalar_one()
    source, value = aliased(TranslationValue), aliased(TranslationValue)
    query = (
        select(Translation.id, Translation.key, Translation.file_name, source.value, value.value)
        .outerjoin(source, and_(source.translation_id == Translation.id, source.language_code == source_code))
        .outerjoin(value, and_(value.translation_id == Translation.id, value.language_code == language))
        .where(Translation.project_id == project_id, Translation.deleted_at.is_(None))
    )
    if file_name is not None:
        query = query.where(Translation.file_name == file_name)
    rows = db.session.execute(
        query.order_by(Translation.file_name, Translation.key, Translation.id).limit(limit + 1).offset(offset)
    ).all()
    items = [
        {"translationId": row[0], "key": row[1], "fileName": row[2], "source": row[3], "value": row[4]}
        for row in rows[:limit]
    ]
    return {
        "sourceLanguage": source_code,
        "language": language,
        "items": items,
        "nextOffset": offset + limit if len(rows) > limit else None,
    }


def members_among(project_id: str, user_ids) -> set[str]:
    """Those of ``user_ids`` who are members of the project (a project role, or an owner or
    admin of its organization): a block does not apply to them."""
    organization = select(Project.organization_id).where(Project.id == project_id).scalar_subquery()
    return policy.project_people(project_id, organization, user_ids)


def _block_out(row) -> dict:
    return {"userId": row[0], "name": row[1], "email": row[2], "blockedAt": row[3]}


def list_blocks(actor, project_id: str) -> list[dict]:
    """The people blocked from proposing in the project, newest first (its admins, by
    session)."""
    policy.require_user(actor)
    policy.require_permission(actor, project_id, policy.MANAGE_PROPOSAL_BLOCKS)
    rows = db.session.execute(
        select(ProposalBlock.user_id, User.name, User.email, ProposalBlock.created_at)
        .join(User, User.id == ProposalBlock.user_id)
        .where(ProposalBlock.project_id == project_id)
        .order_by(ProposalBlock.created_at.desc(), ProposalBlock.user_id)
    ).all()
    return [_block_out(row) for row in rows]


def block(actor, project_id: str, user_id: str) -> tuple[dict, bool]:
    """Block ``user_id`` from proposing and voting in the project as a public visitor; their
    open proposals stay (a reviewer decides them). Returns ``(block, created)``: blocking
    someone blocked already changes nothing. NotFound for an unknown user."""
    with unit_of_work():
        policy.require_user(actor)
        policy.require_permission(actor, project_id, policy.MANAGE_PROPOSAL_BLOCKS)
        user = db.session.get(User, user_id)
        if user is None:
            raise NotFound(USER_NOT_FOUND)
        found = db.session.get(ProposalBlock, (project_id, user_id))
        created = found is None
        if created:
            found = ProposalBlock(
                project_id=project_id, user_id=user_id, blocked_by_id=actor.id, created_at=utcnow()
            )
            db.session.add(found)
            db.session.flush()
        return _block_out((user.id, user.name, user.email, found.created_at)), created


def unblock(actor, project_id: str, user_id: str) -> None:
    """Lift a block. NotFound when the person is not blocked in the project."""
    with unit_of_work():
        policy.require_user(actor)
        policy.require_permission(actor, project_id, policy.MANAGE_PROPOSAL_BLOCKS)
        found = db.session.get(ProposalBlock, (project_id, user_id))
        if found is None:
            raise NotFound("userId: this person is not blocked in this project.")
        db.session.delete(found)
        db.session.flush()
