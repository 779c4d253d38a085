"""The web app's languages: Flask-Babel set up on the application, the locale of each page
(the account's setting, else the browser's ``Accept-Language`` negotiated against the
shipped catalogs, else ``LOKO_DEFAULT_LOCALE``), the language switcher, the pages' date and
number formatting, and the catalog of the pages' scripts.

The JSON API, the MCP server and the CLI stay English: ``/api`` requests are always ``en``.
Catalogs live in ``loko/locale/<locale>/LC_MESSAGES/messages.po`` (``make catalogs``
extracts, updates and compiles them); Flask-Babel loads each compiled catalog once and keeps
it, so a lookup is a dictionary read."""

from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

from babel import Locale, UnknownLocaleError
from babel.messages.extract import extract_from_file
from flask import Blueprint, current_app, g, redirect, request, url_for
from flask_babel import (
    Babel,
    format_datetime,
    format_number,
    format_percent,
    format_timedelta,
    get_locale,
    get_translations,
)

from loko.auth.actors import UserActor
from loko.web.issue_texts import issue_text
from loko.web.labels import label
from loko.web.refusals import page_message

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
STATIC_DIR = Path(__file__).resolve().parent / "static"
LOCALE_COOKIE = "loko-locale"

# The languages the web app ships, English (the messages themselves) first.
SOURCE_LOCALE = "en"
LOCALES = ("en", "de", "fr", "es", "pt_BR", "ja", "zh_Hans", "ar")

i18n_ui = Blueprint("i18n_ui", __name__)


def normalize_locale(code: str | None) -> str | None:
    """The shipped locale ``code`` names (``de``, ``pt-BR``, ``zh_CN`` ...), or None."""
    if not code:
        return None
    return match_locale([code], current_available())


def match_locale(preferred, available) -> str | None:
    """The first of ``preferred`` (BCP 47 or POSIX tags, best first) that one of
    ``available`` serves: the same locale, or the same language and script (``zh-CN`` is
    ``zh_Hans_CN``, served by ``zh_Hans``), or the same language where the script agrees
    (``pt`` and ``pt-PT`` by ``pt_BR``, ``de-AT`` by ``de``)."""
    parsed_available = [(code, _parse(code)) for code in available if _parse(code) is not None]
    for tag in preferred:
        wanted = _parse(str(tag).replace("-", "_"))
        if wanted is None:
            continue
        for code, offered in parsed_available:
            if str(offered) == str(wanted):
                return code
        for code, offered in parsed_available:
            if offered.language == wanted.language and _script(offered) == _script(wanted):
                return code
    return None


@cache
def _parse(code: str) -> Locale | None:
    """``code`` as a Babel locale (None when Babel knows no such locale); parsed once."""
    try:
        return Locale.parse(code)
    except (ValueError, UnknownLocaleError, TypeError):
        return None


def _script(locale: Locale) -> str | None:
    """The locale's script, or its language's likely one (``zh_CN``: Hans)."""
    if locale.script:
        return locale.script
    parsed = _parse(str(locale))
    return (parsed.script if parsed else None) or _default_script(locale.language)


@cache
def _default_script(language: str) -> str | None:
    from babel.core import get_global

    likely = get_global("likely_subtags").get(language, "")
    parts = likely.split("_")
    return parts[1] if len(parts) > 2 else None


def current_available() -> tuple[str, ...]:
    return current_app.extensions["loko_locales"]


def select_locale() -> str:
    """The locale of this request (see the module)."""
    if request.path == "/api" or request.path.startswith("/api/"):
        return SOURCE_LOCALE
    available = current_available()
    actor = g.get("actor")
    if isinstance(actor, UserActor) and actor.locale in available:
        return actor.locale
    if not isinstance(actor, UserActor):
        chosen = request.cookies.get(LOCALE_COOKIE)
        if chosen in available:
            return chosen
    preferred = [tag for tag, _quality in request.accept_languages]
    return match_locale(preferred, available) or current_app.config["LOKO_DEFAULT_LOCALE"]


def locale_code() -> str:
    """The page's language as a BCP 47 tag (``pt-BR``, ``zh-Hans``)."""
    return str(get_locale()).replace("_", "-")


def locale_direction() -> str:
    return get_locale().text_direction


def locale_choices() -> list[dict]:
    """Each shipped language, named in itself, for the switcher and the account page."""
    current = str(get_locale())
    return [
        {
            "code": code,
            "tag": code.replace("_", "-"),
            "name": _own_name(code),
            "dir": _parse(code).text_direction,
            "current": code == current,
        }
        for code in current_available()
    ]


@cache
def _own_name(code: str) -> str:
    name = _parse(code).get_display_name(code) or code
    return name[:1].upper() + name[1:]


def script_catalog() -> str:
    """The translations of the pages' scripts' messages in the page's language, as JSON
    for the ``<html data-messages>`` attribute the scripts read (empty for English)."""
    locale = str(get_locale())
    if locale == SOURCE_LOCALE:
        return ""
    return _script_catalog(locale, current_app.config["BABEL_TRANSLATION_DIRECTORIES"])


@cache
def _script_catalog(locale: str, _folder: str) -> str:
    """A plural message maps each CLDR category of the language (the scripts pick one with
    ``Intl.PluralRules``) to the form gettext gives a number of that category."""
    import orjson

    from loko.formats.plurals import first_numbers

    translations = get_translations()
    samples = first_numbers(locale)
    messages = {}
    for message in script_messages():
        if isinstance(message, tuple):
            singular, plural = message[:2]
            messages[singular] = {
                category: translations.ungettext(singular, plural, number)
                for category, number in samples.items()
            }
        else:
            messages[message] = translations.ugettext(message)
    return orjson.dumps({"locale": locale.replace("_", "-"), "messages": messages}).decode()


@cache
def script_messages() -> tuple:
    """The messages the pages' scripts show: the ``_("...")`` and ``ngettext`` calls in
    ``loko/web/static/*.js``, read once."""
    found = []
    for path in sorted(STATIC_DIR.glob("*.js")):
        for _line, message, _comments, _context in extract_from_file(
            "javascript", str(path), keywords={"_": None, "ngettext": (1, 2)}
        ):
            if message not in found:
                found.append(message)
    return tuple(found)


@i18n_ui.get("/locale/<code>/refusals.json")
def refusals_catalog(code: str):
    """The service's refusals in the language ``code`` (a shipped one), for the pages'
    scripts to show what the API answers in English (``Loko.api`` reads it at the first
    refusal). The same for everyone: kept by the browser for a day."""
    from flask import abort

    if code not in current_available() or code == SOURCE_LOCALE:
        abort(404)
    response = current_app.response_class(
        _refusals_json(code, current_app.config["BABEL_TRANSLATION_DIRECTORIES"]), mimetype="application/json"
    )
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response


@cache
def _refusals_json(code: str, _folder: str) -> str:
    import orjson

    from loko.web.refusals import script_table

    return orjson.dumps(script_table(code)).decode()


def refusals_url() -> str:
    """Where the page's scripts read the refusals in its language (empty for English)."""
    locale = str(get_locale())
    return "" if locale == SOURCE_LOCALE else url_for("i18n_ui.refusals_catalog", code=locale)


@i18n_ui.post("/locale")
def switch_locale():
    """The language switcher: the chosen language for the account (or, signed out, for
    this browser), then back to the page it was chosen on, its query kept."""
    from loko.auth.service import set_user_locale

    chosen = normalize_locale(request.form.get("locale"))
    target = request.form.get("page", "")
    target = request.script_root + target if _is_local(target) else url_for("organizations_ui.home")
    response = redirect(target, code=303)
    if chosen is None:
        return response
    actor = g.get("actor")
    if isinstance(actor, UserActor):
        set_user_locale(actor, chosen)
    else:
        response.set_cookie(
            LOCALE_COOKIE,
            chosen,
            max_age=365 * 24 * 3600,
            httponly=True,
            samesite="Lax",
            secure=current_app.config["LOKO_COOKIE_SECURE"],
            path=request.script_root or "/",
        )
    return response


def _is_local(target: str) -> bool:
    if not target.startswith("/") or any(c <= " " or c in "\x7f\\" for c in target):
        return False
    parts = urlsplit(target)
    return not parts.scheme and not parts.netloc and not target.startswith("//")


def current_page() -> str:
    """This page's path and query, where the switcher returns to."""
    path = request.path.rstrip("/") or "/"
    query = request.query_string.decode("latin-1")
    return f"{path}?{query}" if query else path


def init_i18n(app) -> None:
    """Flask-Babel on ``app``, with the template helpers the layout uses."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", SOURCE_LOCALE)
    app.config.setdefault("BABEL_DEFAULT_TIMEZONE", "UTC")
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(app.config.get("LOKO_LOCALE_DIR") or LOCALE_DIR)
    default = normalize_default(
        app.config["LOKO_DEFAULT_LOCALE"], app.config["BABEL_TRANSLATION_DIRECTORIES"]
    )
    app.config["LOKO_DEFAULT_LOCALE"] = default
    app.extensions["loko_locales"] = available_in(Path(app.config["BABEL_TRANSLATION_DIRECTORIES"]))
    Babel(app, locale_selector=select_locale)
    app.jinja_env.globals.update(
        page_locale=locale_code,
        page_direction=locale_direction,
        locale_choices=locale_choices,
        script_catalog=script_catalog,
        refusals_url=refusals_url,
        current_page=current_page,
        format_datetime=format_datetime,
        format_number=format_number,
        format_percent=format_percent,
        format_timedelta=format_timedelta,
    )
    app.jinja_env.filters["label"] = label
    app.jinja_env.filters["refusal"] = page_message
    app.jinja_env.filters["issue_text"] = issue_text
    app.register_blueprint(i18n_ui)


def available_in(folder: Path) -> tuple[str, ...]:
    present = {path.parent.parent.name for path in folder.glob("*/LC_MESSAGES/messages.mo")}
    ordered = tuple(code for code in LOCALES if code == SOURCE_LOCALE or code in present)
    return ordered + tuple(sorted(present - set(ordered)))


def normalize_default(code: str, folder: str) -> str:
    """``LOKO_DEFAULT_LOCALE`` as a shipped locale (``de-DE`` is ``de``); English when it
    names none."""
    return match_locale([code], available_in(Path(folder))) or SOURCE_LOCALE
