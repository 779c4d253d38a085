"""Pages: the editor."""

from loko.translations.views import translations_ui  # noqa: F401
