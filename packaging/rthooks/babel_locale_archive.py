"""Runtime hook of the one-file build: Babel reads its CLDR locale data from one zip
archive (loko.spec makes it).

The locale data is about a thousand files: unpacking each of them on every start took
most of the executable's start-up time, while Loko reads only the few locales it meets.
Babel finds a locale's file through ``exists``, ``locale_identifiers`` and an ``open`` of
the file's path in ``babel.localedata``; those three read the archive instead, opened on
first use."""

import functools
import os
import sys
import zipfile

from babel import localedata

ARCHIVE = os.path.join(sys._MEIPASS, "babel", "locale-data.zip")


@functools.cache
def _archive() -> zipfile.ZipFile:
    return zipfile.ZipFile(ARCHIVE)


@functools.cache
def _stems() -> frozenset:
    return frozenset(name.removesuffix(".dat") for name in _archive().namelist())


def _open(filename, mode="rb"):
    return _archive().open(f"{os.path.basename(filename).removesuffix('.dat')}.dat")


@functools.cache
def _locale_identifiers():
    return sorted(stem for stem in _stems() if stem != "root")


def _exists(name):
    if not name or not isinstance(name, str):
        return False
    if name in localedata._cache:
        return True
    return os.path.basename(name) in _stems() or bool(localedata.normalize_locale(name))


localedata.open = _open
localedata.locale_identifiers = _locale_identifiers
localedata.exists = _exists
