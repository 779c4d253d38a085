from flask import Blueprint

from loko.auth.identity import current_actor
from loko.auth.schemas import SuccessOut
from loko.files import service
from loko.files.schemas import FileDelete, FileList, FileRename, FilesCreate, FilesQuery
from loko.http import load_body, load_query, operation_response
from loko.openapi import documented

files_api = Blueprint("files_api", __name__)
TAGS = ("files",)
BASE = "/projects/<uuid:project_id>/files"


@files_api.get(BASE)
@documented(
    "File translation records, sorted by file name and language",
    tags=TAGS,
    query=FilesQuery,
    responses={200: FileList},
)
def list_files(project_id):
    query = load_query(FilesQuery)
    files = service.list_files(current_actor(), str(project_id), query.get("fileName"), query.get("language"))
    return FileList().dump({"files": files})


@files_api.post(BASE)
@documented(
    "Create a file in one or more languages; existing records are skipped",
    tags=TAGS,
    body=FilesCreate,
    responses={201: FileList, 200: FileList},
    description="Answers 201 when at least one record was created, 200 when all existed. "
    "`files` holds the records created by this call.",
)
def create_files(project_id):
    data = load_body(FilesCreate)
    created = service.create_files(current_actor(), str(project_id), data["fileName"], data["languages"])
    return FileList().dump({"files": created}), 201 if created else 200


@files_api.patch(BASE)
@documented(
    "Rename a file in every language, with its translations",
    tags=TAGS,
    body=FileRename,
    responses={200: FileList},
    errors=(400, 401, 403, 404, 409),
)
def rename_file(project_id):
    data = load_body(FileRename)
    files = service.rename_file(current_actor(), str(project_id), data["fileName"], data["newFileName"])
    return FileList().dump({"files": files})


@files_api.delete(BASE)
@documented(
    "Delete a file and its translations, or only one language version of it",
    tags=TAGS,
    body=FileDelete,
    responses={200: SuccessOut},
    errors=(400, 401, 403, 404),
    description="What is removed is kept, as one operation, for the trash's retention period: the "
    "file's keys go to the trash, a language version's values are kept in the history. The "
    "`Loko-Operation` response header names the operation that restores it all in one step "
    "(POST history/revert). `permanent: true` deletes for good at once.",
)
def delete_file(project_id):
    data = load_body(FileDelete)
    operation_id = service.delete_file(
        current_actor(), str(project_id), data["fileName"], data.get("languageCode"), data["permanent"]
    )
    return operation_response({"success": True}, None if data["permanent"] else operation_id)
