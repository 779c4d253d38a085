"""Pages: a project's languages."""

from flask import Blueprint

languages_ui = Blueprint("languages_ui", __name__)
