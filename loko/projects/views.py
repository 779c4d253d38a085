"""Pages: a project's overview."""

from flask import Blueprint

from loko.languages.service import project_languages
from loko.web.pages import project_page, render_page

projects_ui = Blueprint("projects_ui", __name__)


@projects_ui.get("/projects/<uuid:project_id>")
def overview(project_id):
    view = project_page(str(project_id))
    return render_page(
        "projects/overview.html", view=view, languages=project_languages(view.project, stats=True)
    )
