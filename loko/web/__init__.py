"""The web app's shell: the layout, static assets, CSRF tokens, security headers, page errors
and the signed-in-or-redirect helper. Each feature's pages are its own ``views.py``."""

from flask import Blueprint, request
from markupsafe import Markup, escape

from loko.errors import BadRequest
from loko.formats.plurals import examples
from loko.http import allow_body_up_to
from loko.languages.catalog import text_direction
from loko.web.compression import compress_response
from loko.web.csrf import check_api_token, csrf_token, protect_page_write
from loko.web.pages import upload_limit_setting

web_ui = Blueprint(
    "web_ui", __name__, static_folder="static", static_url_path="/static", template_folder="../templates"
)

web_ui.add_app_template_global(csrf_token)


@web_ui.app_template_global()
def lang_dir(code: str | None) -> Markup:
    """``lang`` and ``dir`` attributes for a value in the language ``code`` (nothing for
    none), so that Arabic or Hebrew reads and is edited right to left."""
    if not code:
        return Markup("")
    return Markup(f' lang="{escape(code)}" dir="{text_direction(code)}"')  # noqa: S704 - escaped


@web_ui.app_template_global()
def plural_examples(codes) -> dict:
    """Each language's CLDR plural categories with example numbers, cardinal and ordinal,
    for the editor's plural fields: ``{"ar": {"plural": {"zero": "0", ...}, ...}}``."""
    return {
        code: {"plural": examples(code), "selectordinal": examples(code, ordinal=True)}
        for code in codes
        if code
    }


@web_ui.app_template_test("rtl")
def is_rtl(code: str | None) -> bool:
    """``{% if code is rtl %}``: a language written right to left."""
    return bool(code) and text_direction(code) == "rtl"


# Pages run no inline script or style and are never framed; every asset is Loko's own.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
PAGE_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def refuse_nul_input() -> None:
    """A page's query, form and path hold no NUL (PostgreSQL text cannot): 400 naming the
    field, before any view reads them (the API's loaders do the same)."""
    sources = (
        request.args.items(multi=True),
        request.form.items(multi=True),
        (request.view_args or {}).items(),
    )
    for source in sources:
        for name, value in source:
            if "\x00" in name or (isinstance(value, str) and "\x00" in value):
                raise BadRequest(f"{name.replace(chr(0), '')}: must not contain the NUL character (U+0000).")


def is_page_request() -> bool:
    """A request for the web app (not the JSON API, not a static asset)."""
    path = request.path
    return not (path == "/api" or path.startswith(("/api/", "/static/")))


@web_ui.after_app_request
def page_headers(response):
    if is_page_request() or request.path.startswith("/static/"):
        for name, value in PAGE_HEADERS.items():
            response.headers.setdefault(name, value)
    if is_page_request() and response.mimetype == "text/html":
        # Pages show the caller's own data: never kept by a shared cache.
        response.headers.setdefault("Cache-Control", "no-store")
    if is_page_request() or request.path.startswith("/static/"):
        compress_response(response, static=request.path.startswith("/static/"))
    return response


@web_ui.before_app_request
def check_csrf_token():
    if is_page_request():
        setting = upload_limit_setting()
        if setting is not None:
            allow_body_up_to(setting)
        refuse_nul_input()
        protect_page_write()
    elif request.path.startswith("/api/"):
        check_api_token()
