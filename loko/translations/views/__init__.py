"""Pages of translations: the editor, the trash, the history and undo (one module each)."""

from flask import Blueprint

translations_ui = Blueprint("translations_ui", __name__)

# The modules attach their routes to the blueprint.
from loko.translations.views import editor, history, trash, undo  # noqa: E402, F401
