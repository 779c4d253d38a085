"""OASIS's XLIFF schemas in ``schemas/`` (see its README), loaded with lxml without network:
the schemas import W3C's ``xml.xsd`` from the web or from a folder of their own, so both
locations are pointed at the copy beside them. Tests that need them skip when lxml, which is
not a dependency of Loko, is not installed."""

from pathlib import Path

import pytest

SCHEMAS = Path(__file__).parent / "schemas"
XML_XSD_LOCATIONS = (b"http://www.w3.org/2001/xml.xsd", b"informativeCopiesOf3rdPartySchemas/w3c/xml.xsd")


class Schema:
    def __init__(self, etree, name: str):
        self._etree = etree
        text = (SCHEMAS / name).read_bytes()
        for location in XML_XSD_LOCATIONS:
            text = text.replace(location, b"xml.xsd")
        self._schema = etree.XMLSchema(etree.fromstring(text, base_url=str(SCHEMAS / name)))

    def is_valid(self, data: bytes) -> bool:
        return self._schema.validate(self._etree.fromstring(data))

    def errors(self, data: bytes) -> str:
        self._schema.validate(self._etree.fromstring(data))
        return str(self._schema.error_log)


def load_schema(name: str) -> Schema:
    etree = pytest.importorskip(
        "lxml.etree",
        reason="lxml is not installed in the venv (it is not a dependency of Loko); "
        "`pip install lxml` to validate XLIFF output against the OASIS schemas",
    )
    return Schema(etree, name)
