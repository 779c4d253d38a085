"""What every page view uses: the signed-in user or a redirect to sign in, rendering with the
layout's context, form input through the API's own schemas, refusals shown on the page, and
the one-time notice after a successful form."""

from collections.abc import Callable
from urllib.parse import quote, unquote

from flask import current_app, g, redirect, render_template, request, url_for
from flask_babel import gettext, lazy_gettext
from marshmallow import Schema, ValidationError

from loko.auth.actors import UserActor
from loko.errors import BadRequest, LokoError, Unauthorized, describe_validation
from loko.formats.registry import FORMAT_NAMES, format_module
from loko.http import schema_instance
from loko.projects.service import ProjectView, get_project
from loko.web.csrf import set_csrf_cookie
from loko.web.labels import label
from loko.web.refusals import page_message

NOTICE_COOKIE = "loko-notice"
MAX_NOTICE = 300


class SignInRequired(Unauthorized):
    """A page that needs a signed-in user was opened without one."""

    def __init__(self):
        super().__init__(gettext("Sign in to continue."))


def page_user() -> UserActor:
    """The signed-in user; SignInRequired (a redirect to the sign-in page) otherwise."""
    actor = g.get("actor")
    if not isinstance(actor, UserActor):
        raise SignInRequired()
    return actor


def project_page(project_id: str) -> ProjectView:
    """The project and the caller's permissions; NotFound where the caller may not see it."""
    return get_project(page_user(), project_id)


# The project's sections, in the order of its tab bar, with the permission each needs.
PROJECT_TABS = (
    (lazy_gettext("Overview"), "projects_ui.overview", "can_view_translations"),
    (lazy_gettext("Editor"), "translations_ui.editor", "can_view_translations"),
    (lazy_gettext("Languages"), "languages_ui.languages", "can_view_translations"),
    (lazy_gettext("Files"), "files_ui.files", "can_view_translations"),
    (lazy_gettext("Screenshots"), "screenshots_ui.screenshots", "can_view_translations"),
    (lazy_gettext("Proposals"), "proposals_ui.queue", "can_view_proposals"),
    (lazy_gettext("Propose translations"), "proposals_ui.texts", "visitor"),
    (lazy_gettext("Import"), "imports_ui.import_page", "can_edit_translations"),
    (lazy_gettext("Pre-translate"), "machine_ui.pretranslate_page", "can_edit_translations"),
    (lazy_gettext("Trash"), "translations_ui.trash", "can_view_translations"),
    (lazy_gettext("History"), "translations_ui.history", "can_view_translations"),
    (lazy_gettext("Releases"), "releases_ui.releases", "can_view_translations"),
    (lazy_gettext("Jobs"), "jobs_ui.jobs", "can_view_translations"),
    (lazy_gettext("Tasks"), "tasks_ui.board", "can_view_translations"),
    (lazy_gettext("Notifications"), "notifications_ui.settings", "can_view_translations"),
    (lazy_gettext("API keys"), "apikeys_ui.keys", "can_edit_projects"),
    (lazy_gettext("Settings"), "projects_ui.settings", "can_edit_projects"),
    (lazy_gettext("Repository"), "repohost_ui.repository", "can_edit_projects"),
    (lazy_gettext("Webhooks"), "webhooks_ui.webhooks", "can_edit_projects"),
)


def project_tabs(view: ProjectView) -> list[dict]:
    """The tabs this caller may open, the current one marked."""
    return [
        {
            "label": str(label),
            "url": url_for(endpoint, project_id=view.project.id),
            "current": request.endpoint == endpoint,
        }
        for label, endpoint, permission in PROJECT_TABS
        if endpoint in current_app.view_functions and getattr(view.permissions, permission)
    ]


def format_choices() -> list[tuple[str, str]]:
    """Every format as ``(name, label)`` for a page's select; a format whose module is not
    installed is left out."""
    choices = []
    for name in FORMAT_NAMES:
        try:
            choices.append((name, label(format_module(name).LABEL)))
        except ImportError:
            continue
    return choices


def accepts_upload(setting: str):
    """Mark a page view whose form carries a file: its body may be up to ``setting`` MiB
    instead of the usual limit (applied before the CSRF check reads the form)."""

    def mark(view):
        view.upload_limit_setting = setting
        return view

    return mark


def upload_limit_setting() -> str | None:
    """The setting of the body limit of the requested page view, when it accepts uploads."""
    view = current_app.view_functions.get(request.endpoint)
    return getattr(view, "upload_limit_setting", None)


def form_input(schema: type[Schema], *, drop_empty: tuple[str, ...] = (), extra: dict | None = None) -> dict:
    """The posted form's fields that ``schema`` declares, loaded by that API schema (the same
    rules as the JSON API), with ``extra`` values from the page itself. Fields in
    ``drop_empty`` are left out when blank, as an API client would leave them out."""
    loader = schema_instance(schema)
    names = {field.data_key or name for name, field in loader.load_fields.items()}
    data = {name: value for name, value in request.form.items() if name in names}
    for name in drop_empty:
        if not data.get(name, "").strip():
            data.pop(name, None)
    return loader.load(data | (extra or {}))


REFUSED = object()


def require_typed_confirmation(expected: str, field: str = "confirm") -> None:
    """A delete for good of more than one key is confirmed by typing ``expected`` (a file
    name or language code) into the form's ``field``; BadRequest otherwise."""
    if request.form.get(field, "").strip() != expected:
        raise BadRequest(
            gettext(
                "%(field)s: type %(expected)s to confirm that it is deleted for good.",
                field=field,
                expected=expected,
            )
        )


def attempt(action: Callable[[], object]):
    """Run a form's use case and return its result; on a refusal, REFUSED, and the page
    rendered next shows the error with its status."""
    try:
        return action()
    except ValidationError as error:
        g.form_error, g.form_status = (
            describe_validation(translated(error.messages)) or gettext("Invalid input."),
            400,
        )
    except LokoError as error:
        if isinstance(error, SignInRequired):
            raise
        g.form_error, g.form_status, g.form_details = error.message, error.status, error.details
    return REFUSED


# The messages of the API's input checks (marshmallow's own and Loko's schemas') a page shows
# in its language; the field names stay as the form sends them.
FORM_MESSAGES = (
    lazy_gettext("Missing data for required field."),
    lazy_gettext("Field may not be null."),
    lazy_gettext("Not a valid string."),
    lazy_gettext("Not a valid integer."),
    lazy_gettext("Not a valid boolean."),
    lazy_gettext("Not a valid email address."),
    lazy_gettext("Not a valid URL."),
    lazy_gettext("Not a valid datetime."),
    lazy_gettext("Not a valid choice."),
    lazy_gettext("Unknown field."),
    lazy_gettext("Invalid value."),
    lazy_gettext("Shorter than minimum length 8."),
    lazy_gettext("Length must be between 1 and 128."),
    lazy_gettext("Length must be between 1 and 256."),
    lazy_gettext("Must not be blank."),
)


def translated(messages):
    """Marshmallow's messages, each in the page's language where the catalog has it."""
    if isinstance(messages, dict):
        return {key: translated(inner) for key, inner in messages.items()}
    if isinstance(messages, list | tuple):
        return [translated(inner) for inner in messages]
    if isinstance(messages, str):
        text = gettext(messages)
        return page_message(messages) if text == messages else text
    return messages


def page_query(schema: type[Schema], source, names: tuple[str, ...], **fixed) -> dict:
    """The page's filters from ``source`` (the query string, or a form that carried them),
    loaded by the API's ``schema``; blank ones are left out. Bad input is shown on the page
    (with status 400) and the filters are dropped."""
    data = {name: source.get(name) for name in names if source.get(name)}
    loaded = attempt(lambda: schema_instance(schema).load(data | fixed))
    return schema_instance(schema).load(fixed) if loaded is REFUSED else loaded


def submit(
    action: Callable[[], object],
    *,
    then: str | Callable[[object], str],
    notice: str | Callable[[object], str],
):
    """Run a form's use case. On success, a 303 redirect to ``then`` (or to ``then(result)``)
    with ``notice`` (or ``notice(result)``); on a refusal, None, and the page rendered next
    shows the error with its status."""
    result = attempt(action)
    if result is REFUSED:
        return None
    return redirect_with_notice(
        then(result) if callable(then) else then, notice(result) if callable(notice) else notice
    )


def redirect_with_notice(location: str, notice: str):
    response = redirect(location, code=303)
    response.set_cookie(
        NOTICE_COOKIE,
        quote(notice[:MAX_NOTICE]),
        max_age=60,
        httponly=True,
        samesite="Lax",
        secure=current_app.config["LOKO_COOKIE_SECURE"],
        path=request.script_root or "/",
    )
    return response


def _issues_of(details) -> list | None:
    """A check's refusal's issues, from a form error's details."""
    return details.get("issues") if isinstance(details, dict) else None


def render_page(template: str, status: int | None = None, **context):
    """Render a page inside the layout, with its form error (and that error's status) and the
    notice left by the previous form."""
    notice = request.cookies.get(NOTICE_COOKIE)
    view = context.get("view")
    if isinstance(view, ProjectView):
        context.setdefault("tabs", project_tabs(view))
    body = render_template(
        template,
        user=g.get("actor") if isinstance(g.get("actor"), UserActor) else None,
        form_error=page_message(g.get("form_error"), issues=_issues_of(g.get("form_details"))),
        form_details=g.get("form_details"),
        notice=unquote(notice) if notice else None,
        **context,
    )
    response = current_app.make_response((body, status or g.get("form_status") or 200))
    if notice:
        response.delete_cookie(NOTICE_COOKIE, path=request.script_root or "/")
    return set_csrf_cookie(response)


def error_page(status: int, message: str):
    """An error as a page (the API answers the same errors as JSON)."""
    if status == 401 and request.method == "GET":
        return redirect(url_for("auth_ui.login", next=request.full_path.rstrip("?")))
    titles = {
        400: gettext("Bad request"),
        401: gettext("Signed out"),
        403: gettext("Not allowed"),
        404: gettext("Not found"),
        405: gettext("Not allowed"),
        409: gettext("Conflict"),
        413: gettext("Too large"),
        429: gettext("Too many attempts"),
    }
    title = titles.get(status, gettext("Something went wrong") if status >= 500 else gettext("Error"))
    sign_in = url_for("auth_ui.login", next=request.path) if status == 401 else None
    return render_page(
        "errors/error.html",
        status,
        title=title,
        message=page_message(message),
        code=status,
        sign_in=sign_in,
    )
