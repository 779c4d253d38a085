"""Pages: an organization's glossary, read by every member, changed by its owners and admins
(add, change and delete terms, import a CSV or TBX file, with a dry run). Each form posts
here and redirects back with a notice, or shows the page again with the error; a dry run,
which writes nothing, shows what it found with the import's choices kept."""

from flask import Blueprint, request, url_for

from loko.auth.policy import MANAGE_GLOSSARY, organization_permissions
from loko.errors import BadRequest
from loko.glossary import service
from loko.glossary.models import PARTS_OF_SPEECH
from loko.glossary.schemas import GlossaryImportIn, GlossaryTermCreate, GlossaryTermPatch, GlossaryTermsQuery
from loko.http import schema_instance
from loko.organizations import service as organizations
from loko.web.pages import (
    REFUSED,
    accepts_upload,
    attempt,
    page_query,
    page_user,
    redirect_with_notice,
    render_page,
)

glossary_ui = Blueprint("glossary_ui", __name__)
PATH = "/orgs/<uuid:organization_id>/glossary"
PAGE_SIZE = 50


def translations_from(text: str) -> list[dict]:
    """``de: Datei`` lines as translations (``de: !Akte`` a forbidden one); BadRequest naming
    a line without a language code."""
    translations = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        code, colon, rest = line.partition(":")
        rest = rest.strip()
        if not colon or not code.strip() or not rest.lstrip("!").strip():
            raise BadRequest(f"translations: line {number} is not 'code: translation'.")
        forbidden = rest.startswith("!")
        translations.append(
            {"language": code.strip(), "text": rest.lstrip("!").strip(), "forbidden": forbidden}
        )
    return translations


def translations_text(translations: list[dict]) -> str:
    return "".join(f"{t['language']}: {'!' if t['forbidden'] else ''}{t['text']}\n" for t in translations)


def _term_data() -> dict:
    form = request.form
    return {
        "language": form.get("language", "").strip(),
        "term": form.get("term", "").strip(),
        "partOfSpeech": form.get("part_of_speech") or None,
        "note": form.get("note", ""),
        "caseSensitive": form.get("case_sensitive") == "true",
        "forbidden": form.get("forbidden") == "true",
        "translations": translations_from(form.get("translations", "")),
    }


def _import_data() -> dict:
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        raise BadRequest("file: choose a CSV or TBX file.")
    name = upload.filename.lower()
    data = {
        "format": "tbx" if name.endswith((".tbx", ".xml")) else "csv",
        "content": upload.read().decode("utf-8-sig", "replace"),
        "mode": request.form.get("mode", "merge"),
        "dryRun": request.form.get("dry_run") == "true",
    }
    if request.form.get("source_language", "").strip():
        data["sourceLanguage"] = request.form["source_language"].strip()
    return schema_instance(GlossaryImportIn).load(data)


def _page(organization: dict, form_for: str | None = None, status: int | None = None, result=None):
    actor = page_user()
    # A file input cannot be filled again: the page names the file the import form carried.
    upload = request.files.get("file") if form_for == "import" else None
    query = page_query(GlossaryTermsQuery, request.args, ("q", "language", "offset"), limit=PAGE_SIZE)
    listing = service.list_terms(actor, organization["id"], query)
    return render_page(
        "glossary/glossary.html",
        status,
        organization=organization,
        listing=listing,
        query=query,
        can_manage=organization_permissions(organization["role"]).can_manage_glossary,
        parts_of_speech=PARTS_OF_SPEECH,
        translations_text=translations_text,
        form=request.form,
        form_for=form_for,
        result=result,
        uploaded=upload.filename if upload else None,
    )


@glossary_ui.get(PATH)
def glossary(organization_id):
    organization = organizations.get_organization(page_user(), str(organization_id))
    return _page(organization)


@glossary_ui.post(PATH)
@accepts_upload("LOKO_MAX_IMPORT_MB")
def forms(organization_id):
    actor, organization_id = page_user(), str(organization_id)
    organization = organizations.get_organization(actor, organization_id, MANAGE_GLOSSARY)
    term_id = request.form.get("term_id", "")
    actions = {
        "add": lambda: service.create_term(
            actor, organization_id, schema_instance(GlossaryTermCreate).load(_term_data())
        ),
        "change": lambda: service.update_term(
            actor, organization_id, term_id, schema_instance(GlossaryTermPatch).load(_term_data())
        ),
        "delete": lambda: service.delete_term(actor, organization_id, term_id),
        "import": lambda: service.import_glossary(actor, organization_id, _import_data()),
    }
    name = request.form.get("form", "")
    if name not in actions:
        raise BadRequest(f"form: unknown glossary form {name!r}.")
    result = attempt(actions[name])
    if result is REFUSED:
        return _page(organization, name)
    if name == "import" and result["dryRun"]:
        return _page(organization, name, result=result)
    here = url_for("glossary_ui.glossary", organization_id=organization_id)
    return redirect_with_notice(here, _notice(name, result))


def _notice(name: str, result) -> str:
    if name == "import":
        return (
            f"Glossary imported: {result['created']} added, {result['updated']} changed, "
            f"{result['deleted']} deleted, {result['unchanged']} unchanged."
        )
    return {"add": "Term added.", "change": "Term changed.", "delete": "Term deleted."}[name]
