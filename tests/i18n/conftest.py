"""The web app's languages: a pseudo-locale catalog built from the messages the templates,
page views and scripts mark (every message wrapped in [[...]]), and the extraction those
tests and ``make catalogs`` share."""

import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[2]
PSEUDO = "eo"  # a locale Babel knows and Loko does not ship: the test's wrapped catalog


def extract_template(folder: Path) -> Catalog:
    """Every marked message of the web app, as ``make catalogs`` extracts it."""
    pot = folder / "messages.pot"
    subprocess.run(
        [
            str(Path(sys.executable).parent / "pybabel"),
            "extract",
            "-F",
            "babel.cfg",
            "-k",
            "lazy_gettext",
            "-k",
            "ngettext:1,2",
            "-k",
            "lazy_ngettext:1,2",
            "--no-location",
            "-o",
            str(pot),
            ".",
        ],
        cwd=ROOT,
        capture_output=True,
        check=True,
    )
    with open(pot, "rb") as handle:
        return read_po(handle)


@pytest.fixture(scope="session")
def message_template(tmp_path_factory) -> Catalog:
    return extract_template(tmp_path_factory.mktemp("pot"))


@pytest.fixture(scope="session")
def pseudo_locale_dir(tmp_path_factory, message_template) -> Path:
    """loko/locale's layout with one catalog, ``eo``, whose every message is [[msgid]]."""
    folder = tmp_path_factory.mktemp("pseudo-locale")
    catalog = Catalog(locale=PSEUDO)
    for message in message_template:
        if not message.id:
            continue
        if message.pluralizable:
            singular, plural = message.id
            catalog.add(message.id, (f"[[{singular}]]", f"[[{plural}]]"), flags=message.flags)
        else:
            catalog.add(message.id, f"[[{message.id}]]", flags=message.flags)
    target = folder / PSEUDO / "LC_MESSAGES"
    target.mkdir(parents=True)
    with open(target / "messages.po", "wb") as handle:
        write_po(handle, catalog)
    with open(target / "messages.mo", "wb") as handle:
        write_mo(handle, catalog)
    return folder
