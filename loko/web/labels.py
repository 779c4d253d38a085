"""The product's words that pages show from the service layer's constants (check titles,
format names, roles, parts of speech, history actions), for the ``label`` filter to show in
the page's language. The constants stay English for the API; the marked copies here are
what the catalogs translate, and tests/i18n holds this list to the constants."""

from flask_babel import gettext, lazy_gettext

LABELS = (
    # loko/checks: each check's TITLE
    lazy_gettext("Ending punctuation differs from the source"),
    lazy_gettext("Longer than the key's maximum length"),
    lazy_gettext("Double space"),
    lazy_gettext("Glossary term not followed"),
    lazy_gettext("Tags differ from the source"),
    lazy_gettext("ICU message syntax or plural forms"),
    lazy_gettext("Placeholders differ from the source"),
    lazy_gettext("Same as the source"),
    lazy_gettext("Leading or trailing whitespace differs from the source"),
    lazy_gettext("URL or e-mail address changed"),
    # loko/formats: each format's LABEL (the product names stay, the words around them move)
    lazy_gettext("JSON (nested, i18next)"),
    lazy_gettext("JSON (flat)"),
    lazy_gettext("CSV (all languages)"),
    lazy_gettext("Android strings.xml"),
    lazy_gettext("Java properties"),
    lazy_gettext("XLIFF 1.2"),
    lazy_gettext("YAML (nested, Rails)"),
    lazy_gettext("Apple .stringsdict"),
    lazy_gettext("XLIFF 2.0"),
    lazy_gettext("Apple .strings"),
    lazy_gettext("Gettext PO"),
    lazy_gettext("Flutter ARB"),
    lazy_gettext("YAML (flat)"),
    # roles in organizations and projects
    lazy_gettext("owner"),
    lazy_gettext("admin"),
    lazy_gettext("member"),
    lazy_gettext("reviewer"),
    lazy_gettext("editor"),
    lazy_gettext("viewer"),
    lazy_gettext("contributor"),
    # check levels in a project's settings
    lazy_gettext("off"),
    lazy_gettext("warn"),
    lazy_gettext("refuse"),
    # API key scopes
    lazy_gettext("read"),
    lazy_gettext("write"),
    # glossary: parts of speech
    lazy_gettext("noun"),
    lazy_gettext("verb"),
    lazy_gettext("adjective"),
    lazy_gettext("adverb"),
    lazy_gettext("properNoun"),
    lazy_gettext("other"),
    # history: what happened to a value
    lazy_gettext("created"),
    lazy_gettext("updated"),
    lazy_gettext("deleted"),
    lazy_gettext("restored"),
    lazy_gettext("purged"),
    lazy_gettext("renamed"),
    # proposals: where a proposal came from
    lazy_gettext("machine"),
    lazy_gettext("memory"),
    # notifications: what a person is told about, and how
    lazy_gettext("New keys in my languages"),
    lazy_gettext("A task assigned to me"),
    lazy_gettext("My task due soon or overdue"),
    lazy_gettext("A comment on a key I follow"),
    lazy_gettext("An @mention of me"),
    lazy_gettext("My import or pre-translation finished or failed"),
    lazy_gettext("In the app"),
    lazy_gettext("E-mail at once"),
    lazy_gettext("Daily digest"),
    lazy_gettext("Weekly digest"),
    lazy_gettext("Off"),
)
KNOWN = frozenset(str(label._args[0]) for label in LABELS)


def label(text) -> str:
    """``{{ value | label }}``: one of the product's words in the page's language; any other
    text (a user's, a name) as it is."""
    if isinstance(text, str) and text in KNOWN:
        return gettext(text)
    return text
