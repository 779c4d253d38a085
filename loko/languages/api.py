from flask import Blueprint

from loko.auth.identity import current_actor
from loko.http import load_body, load_query, operation_response
from loko.languages import service
from loko.languages.schemas import (
    LanguageCreate,
    LanguageDelete,
    LanguageList,
    LanguagesQuery,
    LanguageUpdate,
)
from loko.openapi import documented

languages_api = Blueprint("languages_api", __name__)
TAGS = ("languages",)
BASE = "/projects/<uuid:project_id>/languages"


@languages_api.get(BASE)
@documented(
    "The project's languages, sorted by code", tags=TAGS, query=LanguagesQuery, responses={200: LanguageList}
)
def list_languages(project_id):
    query = load_query(LanguagesQuery)
    return LanguageList().dump(
        {"languages": service.list_languages(current_actor(), str(project_id), query["stats"])}
    )


@languages_api.post(BASE)
@documented(
    "Add a language (a file record is created for every existing file)",
    tags=TAGS,
    body=LanguageCreate,
    responses={201: LanguageList},
    errors=(400, 401, 403, 404, 409),
)
def add_language(project_id):
    data = load_body(LanguageCreate)
    languages = service.add_language(
        current_actor(), str(project_id), data["code"], data.get("name"), data.get("emoji")
    )
    return LanguageList().dump({"languages": languages}), 201


@languages_api.patch(BASE)
@documented(
    "Change a language's code, name or emoji everywhere in the project",
    tags=TAGS,
    body=LanguageUpdate,
    responses={200: LanguageList},
    errors=(400, 401, 403, 404, 409),
)
def update_language(project_id):
    data = load_body(LanguageUpdate)
    current_code = data.pop("currentCode")
    languages = service.update_language(current_actor(), str(project_id), current_code, data)
    return LanguageList().dump({"languages": languages})


@languages_api.delete(BASE)
@documented(
    "Delete a language with its values and file records (project admins)",
    tags=TAGS,
    body=LanguageDelete,
    responses={200: LanguageList},
    errors=(400, 401, 403, 404, 409),
    description="A structural change: needs canEditProjects. The language's values are kept, as "
    "one operation, for the trash's retention period: the `Loko-Operation` response header names "
    "it, and POST history/revert with it restores the values, the file records and the language "
    "in one step. `permanent: true` deletes for good at once.",
)
def delete_language(project_id):
    data = load_body(LanguageDelete)
    languages, operation_id = service.delete_language(
        current_actor(), str(project_id), data["code"], data["permanent"]
    )
    body = LanguageList().dump({"languages": languages})
    return operation_response(body, None if data["permanent"] else operation_id)
