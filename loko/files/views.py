"""Pages: a project's files."""

from flask import Blueprint

files_ui = Blueprint("files_ui", __name__)
