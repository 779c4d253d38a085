from flask import Blueprint

from loko.apikeys import service
from loko.apikeys.schemas import ApiKeyCreate, ApiKeyCreated, ApiKeyList
from loko.auth.identity import current_actor
from loko.auth.schemas import SuccessOut
from loko.http import load_body
from loko.openapi import documented

apikeys_api = Blueprint("apikeys_api", __name__)
TAGS = ("api keys",)


@apikeys_api.post("/projects/<uuid:project_id>/keys")
@documented(
    "Create a project API key; the full key is returned only in this response",
    tags=TAGS,
    auth=("session",),
    body=ApiKeyCreate,
    responses={201: ApiKeyCreated},
)
def create_api_key(project_id):
    data = load_body(ApiKeyCreate)
    key, record = service.create_api_key(current_actor(), str(project_id), **data)
    return ApiKeyCreated().dump({"key": key, "apiKey": record}), 201


@apikeys_api.get("/projects/<uuid:project_id>/keys")
@documented("List the project's API keys", tags=TAGS, auth=("session",), responses={200: ApiKeyList})
def list_api_keys(project_id):
    return ApiKeyList().dump({"keys": service.list_api_keys(current_actor(), str(project_id))})


@apikeys_api.delete("/projects/<uuid:project_id>/keys/<uuid:key_id>")
@documented(
    "Revoke an API key; it stops working at once",
    tags=TAGS,
    auth=("session",),
    responses={200: SuccessOut},
)
def revoke_api_key(project_id, key_id):
    service.revoke_api_key(current_actor(), str(project_id), str(key_id))
    return {"success": True}
