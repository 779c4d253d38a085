import pytest
from sqlalchemy import update

from loko.auth import policy
from loko.auth.models import User
from loko.auth.service import user_actor
from loko.extensions import db
from loko.projects.models import Project
from loko.translations.service import bulk_upsert
from tests.factories import add_language, make_org, make_project, make_user


class Memory:
    """An organization with projects whose values are written through the service."""

    def __init__(self):
        self.owner = make_user("memory-owner@example.test", "Owner")
        self.owner_id = self.owner.id
        self.org = make_org(self.owner)
        self.organization_id = self.org.id
        self.projects = {}

    def project(self, name="Web", languages=("en", "de", "fr"), shared=False) -> str:
        project = make_project(self.org, name=name)
        for code in languages:
            add_language(project, code)
        if shared:
            with db.session.begin():
                db.session.execute(update(Project).where(Project.id == project.id).values(memory_shared=True))
        self.projects[name] = project.id
        return project.id

    def actor(self):
        return user_actor(db.session.get(User, self.owner_id))

    def reach(self, language="de"):
        """The owner's: every project of the organization and its TMX units."""
        return policy.memory_reach(self.actor(), self.organization_id, language)

    def write(self, project_id: str, language: str, values: dict, file_name: str = "app"):
        actor = self.actor()
        bulk_upsert(
            actor, project_id, file_name, language, [{"key": k, "value": v} for k, v in values.items()]
        )


@pytest.fixture
def memory(app):
    with app.app_context():
        yield Memory()
