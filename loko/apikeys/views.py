"""Pages: a project's API keys."""

from flask import Blueprint

apikeys_ui = Blueprint("apikeys_ui", __name__)
