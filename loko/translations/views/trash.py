"""Pages: the trash."""

from loko.translations.views import translations_ui  # noqa: F401
