"""/api/projects/{id}/tags: tags on keys, a project's with their counts, one key's, and the
bulk change of many keys' tags."""

from flask import Blueprint

from loko.auth.identity import current_actor
from loko.http import load_body, operation_response
from loko.openapi import documented
from loko.tags import service
from loko.tags.schemas import BulkTagRequest, BulkTagResult, KeyTagsChange, KeyTagsOut, TagList

tags_api = Blueprint("tags_api", __name__)
TAGS = ("tags",)
BASE = "/projects/<uuid:project_id>/tags"
KEY = BASE + "/keys/<uuid:translation_id>"
RULES = (
    "A tag is 1 to 50 letters, digits and the characters `.` `_` `-` `:`, a letter or a digit "
    "first, compared as written (`Web` and `web` are two tags); a project's tag exists while "
    "a key carries it. Adding and removing tags needs canManageKeys (a write key, or a member "
    "who edits every language); reading them canViewTranslations. Each change is one operation "
    "(kind tag, its id also in the Loko-Operation header): POST history/revert with it undoes "
    "it, and a tag changed again since is listed as a conflict and left as it is."
)


@tags_api.get(BASE)
@documented(
    "The project's tags, each with the active keys carrying it",
    tags=TAGS,
    responses={200: TagList},
    description=RULES,
)
def list_tags(project_id):
    return TagList().dump({"tags": service.list_tags(current_actor(), str(project_id))})


@tags_api.get(KEY)
@documented("One key's tags", tags=TAGS, responses={200: KeyTagsOut})
def key_tags(project_id, translation_id):
    return KeyTagsOut().dump(service.key_tags(current_actor(), str(project_id), str(translation_id)))


@tags_api.patch(KEY)
@documented(
    "Add and remove tags on one key",
    tags=TAGS,
    body=KeyTagsChange,
    responses={200: KeyTagsOut},
    description=RULES + " A tag both added and removed is a 400 naming `remove`.",
)
def change_key_tags(project_id, translation_id):
    data = load_body(KeyTagsChange)
    result = service.change_key_tags(
        current_actor(), str(project_id), str(translation_id), add=data["add"], remove=data["remove"]
    )
    return operation_response(KeyTagsOut().dump(result), result["operationId"])


@tags_api.post(BASE + "/bulk")
@documented(
    "Add and remove tags on many keys, by ids or by a filter, in one transaction",
    tags=TAGS,
    body=BulkTagRequest,
    responses={200: BulkTagResult},
    description=RULES + " The keys are named by `ids` (each an active key of the project, else 404 naming "
    "`ids.N` and nothing is written) or chosen by `filter` (`fileName`, `search` in the key, "
    "`tags` all of which a key carries, `excludeTags` none of which it carries; `{}` is every "
    "active key). All or nothing, whatever the number of keys; `added` and `removed` count the "
    "tags that changed.",
)
def bulk_tag(project_id):
    data = load_body(BulkTagRequest)
    result = service.tag_keys(
        current_actor(),
        str(project_id),
        add=data["add"],
        remove=data["remove"],
        ids=data.get("ids"),
        key_filter=data.get("filter"),
    )
    return operation_response(BulkTagResult().dump(result), result["operationId"])
