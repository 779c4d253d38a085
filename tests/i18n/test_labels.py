"""The product's words pages show from the service layer's constants have marked copies in
loko/web/labels.py (a new check, format or role must be added there to be translated)."""

from loko.checks.registry import CHECKS
from loko.formats.registry import FORMAT_NAMES, format_module
from loko.glossary.models import PARTS_OF_SPEECH
from loko.projects.models import PROJECT_ROLES
from loko.web.labels import KNOWN


def test_every_check_title_format_label_role_and_part_of_speech_is_marked():
    words = {module.TITLE for module in CHECKS.values()}
    words |= {format_module(name).LABEL for name in FORMAT_NAMES}
    words |= set(PROJECT_ROLES) | set(PARTS_OF_SPEECH) | {"owner", "admin", "member"}
    assert words - KNOWN == set()
