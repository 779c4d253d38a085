"""Pages: a project's screenshots (upload several at once, the pictures as thumbnails) and
one screenshot with the regions of its keys (place a key, move or resize a region, confirm
or reject a proposed one, delete a region or the screenshot). Every form redirects after it
succeeds; screenshots.js moves and resizes regions through the REST API's PATCH, which
calls the same ``update_region``."""

from flask import Blueprint, request, url_for

from loko.errors import BadRequest
from loko.http import schema_instance
from loko.screenshots import ocr, service
from loko.screenshots.models import CONFIRMED
from loko.screenshots.schemas import RegionCreate, RegionPatch
from loko.web.pages import (
    REFUSED,
    accepts_upload,
    attempt,
    page_user,
    project_page,
    redirect_with_notice,
    render_page,
)

screenshots_ui = Blueprint("screenshots_ui", __name__)
PATH = "/projects/<uuid:project_id>/screenshots"
ONE = PATH + "/<uuid:screenshot_id>"
RECTANGLE = ("x", "y", "width", "height")


@screenshots_ui.get(PATH)
def screenshots(project_id):
    return _list_page(str(project_id))


@screenshots_ui.post(PATH)
@accepts_upload("LOKO_MAX_SCREENSHOT_UPLOAD_MB")
def upload(project_id):
    actor, project_id = page_user(), str(project_id)
    project_page(project_id)

    def work():
        uploads = []
        for part in request.files.getlist("files"):
            uploads.append((part.filename, part.read()))
            part.close()
        return service.upload_screenshots(actor, project_id, [item for item in uploads if item[1]])

    uploaded = attempt(work)
    if uploaded is REFUSED:
        return _list_page(project_id)
    created = sum(1 for shot in uploaded if shot["created"])
    notice = f"{_count(created, 'screenshot')} uploaded."
    if created < len(uploaded):
        notice += f" {_count(len(uploaded) - created, 'picture')} the project already had."
    return redirect_with_notice(url_for("screenshots_ui.screenshots", project_id=project_id), notice)


@screenshots_ui.route(ONE, methods=["GET", "POST"])
def screenshot(project_id, screenshot_id):
    actor, project_id, screenshot_id = page_user(), str(project_id), str(screenshot_id)
    if request.method == "GET":
        return _one_page(actor, project_id, screenshot_id)
    forms = {
        "add-region": add_region,
        "move-region": move_region,
        "confirm-region": confirm_region,
        "delete-region": delete_region,
        "reject-region": delete_region,
    }
    name = request.form.get("form", "")
    if name == "delete":
        return delete(actor, project_id, screenshot_id)
    if name not in forms:
        raise BadRequest(f"form: unknown screenshot form {name!r}.")
    return forms[name](actor, project_id, screenshot_id)


def add_region(actor, project_id: str, screenshot_id: str):
    def work():
        key_id = service.key_named(
            actor, project_id, request.form.get("key", ""), request.form.get("fileName", "")
        )
        data = schema_instance(RegionCreate).load({"translationId": key_id, **_typed_rectangle()})
        return service.add_region(actor, project_id, screenshot_id, data)

    region = attempt(work)
    if region is REFUSED:
        return _one_page(actor, project_id, screenshot_id, form=request.form)
    return redirect_with_notice(
        _here(project_id, screenshot_id), f"{region['key']} placed on the screenshot."
    )


def move_region(actor, project_id: str, screenshot_id: str):
    """The region's form of numbers: its new place and size, in the image's pixels."""
    region_id = request.form.get("region", "")

    def work():
        changes = schema_instance(RegionPatch).load(_typed_rectangle())
        return service.update_region(actor, project_id, screenshot_id, region_id, changes)

    moved = attempt(work)
    if moved is REFUSED:
        typed = {name: request.form.get(name, "") for name in RECTANGLE}
        return _one_page(actor, project_id, screenshot_id, moving={"region": region_id, **typed})
    return redirect_with_notice(
        _here(project_id, screenshot_id),
        f"{moved['key']}'s region moved to x {moved['x']}, y {moved['y']}, "
        f"{moved['width']} by {moved['height']} pixels.",
    )


def _typed_rectangle() -> dict:
    """The form's x, y, width and height as whole numbers; BadRequest naming the first that
    is not one."""
    numbers = {}
    for name in RECTANGLE:
        raw = request.form.get(name, "").strip()
        if not raw.lstrip("-").isdigit():
            raise BadRequest(f"{name}: a whole number of pixels.")
        numbers[name] = int(raw)
    return numbers


def confirm_region(actor, project_id: str, screenshot_id: str):
    region_id = request.form.get("region", "")
    changed = attempt(
        lambda: service.update_region(actor, project_id, screenshot_id, region_id, {"state": CONFIRMED})
    )
    if changed is REFUSED:
        return _one_page(actor, project_id, screenshot_id)
    return redirect_with_notice(_here(project_id, screenshot_id), f"{changed['key']}'s region confirmed.")


def delete_region(actor, project_id: str, screenshot_id: str):
    region_id = request.form.get("region", "")
    if attempt(lambda: service.delete_region(actor, project_id, screenshot_id, region_id)) is REFUSED:
        return _one_page(actor, project_id, screenshot_id)
    rejected = request.form.get("form") == "reject-region"
    return redirect_with_notice(
        _here(project_id, screenshot_id), "Proposed region rejected." if rejected else "Region deleted."
    )


def delete(actor, project_id: str, screenshot_id: str):
    """To the trash; the list then offers its Undo (a restore) at the top."""
    if attempt(lambda: service.delete_screenshot(actor, project_id, screenshot_id)) is REFUSED:
        return _one_page(actor, project_id, screenshot_id)
    return redirect_with_notice(
        url_for("screenshots_ui.screenshots", project_id=project_id, undo=screenshot_id),
        "Screenshot moved to the trash, with its regions.",
    )


@screenshots_ui.post(ONE + "/restore")
def restore(project_id, screenshot_id):
    actor, project_id, screenshot_id = page_user(), str(project_id), str(screenshot_id)
    project_page(project_id)
    if attempt(lambda: service.restore_screenshot(actor, project_id, screenshot_id)) is REFUSED:
        return _list_page(project_id)
    return redirect_with_notice(_here(project_id, screenshot_id), "Screenshot restored, with its regions.")


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _here(project_id: str, screenshot_id: str) -> str:
    return url_for("screenshots_ui.screenshot", project_id=project_id, screenshot_id=screenshot_id)


def _list_page(project_id: str):
    actor = page_user()
    view = project_page(project_id)
    listed = service.list_screenshots(actor, project_id, limit=500)
    trash = service.list_screenshots(actor, project_id, limit=100, trashed=True)
    undo = next((shot for shot in trash["screenshots"] if shot["id"] == request.args.get("undo")), None)
    return render_page(
        "screenshots/screenshots.html",
        view=view,
        listed=listed,
        trash=trash,
        undo=undo,
        ocr_available=ocr.available(),
    )


def _one_page(actor, project_id: str, screenshot_id: str, form=None, moving=None):
    """The screenshot's page; ``form``: the "Place a key" form as typed, ``moving``: a
    region's form of numbers as typed (shown open), when either was refused."""
    view = project_page(project_id)
    shot = service.get_screenshot(actor, project_id, screenshot_id)
    return render_page(
        "screenshots/screenshot.html",
        view=view,
        shot=shot,
        files=service.file_names(actor, project_id),
        values={name: (form or {}).get(name, "") for name in ("key", "fileName", *RECTANGLE)},
        moving=moving or {},
    )
