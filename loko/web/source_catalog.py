"""``python -m loko.web.source_catalog``: write the English source catalog,
``loko/locale/en/LC_MESSAGES/messages.po``, from ``loko/locale/messages.pot``: each message
is its own translation (a plural's two forms its singular and plural). It is what ``loko
push`` sends from ``loko/locale/loko.toml`` as the source language; ``make catalogs`` runs it."""

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from loko.web.i18n import LOCALE_DIR


def write_source_catalog() -> int:
    with open(LOCALE_DIR / "messages.pot", "rb") as handle:
        template = read_po(handle)
    catalog = Catalog(locale="en", project="Loko", copyright_holder="Loko", fuzzy=False)
    for message in template:
        if not message.id:
            continue
        string = tuple(message.id) if message.pluralizable else message.id
        catalog.add(message.id, string, flags=message.flags, auto_comments=message.auto_comments)
    target = LOCALE_DIR / "en" / "LC_MESSAGES"
    target.mkdir(parents=True, exist_ok=True)
    with open(target / "messages.po", "wb") as handle:
        write_po(handle, catalog, omit_header=False)
    return len(catalog)


if __name__ == "__main__":
    print(f"{write_source_catalog()} messages in the English source catalog")
