from flask import Blueprint

from loko.auth.identity import current_actor
from loko.http import load_body, operation_response
from loko.openapi import documented
from loko.replace.schemas import ReplaceRequest, ReplaceResult
from loko.replace.service import replace_text

replace_api = Blueprint("replace_api", __name__)

DESCRIPTION = (
    "Find and replace in the project's values, in two steps. The preview (`dryRun` true, the "
    "default; canViewTranslations) lists each value the replacement changes, `{translationId, "
    "key, fileName, language, before, after, matches}`, ordered by file, key and language, "
    "`limit` a page (default 1,000) and `nextCursor` the next; `refused` lists the results that "
    "would break a placeholder, a markup tag or ICU syntax, be empty of them, hold NUL or exceed "
    "8,192 characters, or that a check the project sets to refuse finds wrong: never written; "
    "`timedOut` the values whose matching ran out of its time (0.1 s), left as they are; a page "
    "ends early, with its `nextCursor`, after 10 s of matching. The "
    "apply (`dryRun` false) writes the ticked `items`, each `{translationId, language, expected}` "
    "with `expected` the preview's `before`: a value changed since is skipped (`reason` "
    "changed, with its `current` value), never overwritten. It needs canEditTranslations in "
    "each item's language (403 naming the others), writes in one transaction as one operation "
    "(kind replace: undo it with POST history/revert, its id also in the Loko-Operation header) "
    "through the checks, review states, history and webhooks of every write; a value replaced "
    "by someone who does not review it waits for a review (reason requested). "
    "`mode` text takes `find` and `replace` as written; regex reads `find` as a regular "
    "expression (the `regex` module's syntax) and `replace` may insert its groups (`\\1`, "
    "`\\g<name>`). `languages` defaults to the languages the caller may edit but the source; "
    "the source language only with `includeSource`. `fileName`, `search`, `state`, `tags` (keys "
    "with every one) and `excludeTags` (keys with none) narrow the values searched. "
    "Rules over stored data and the pattern, "
    "each a 400 naming its field: `find` must compile and its counted repetitions stay under "
    "10,000 steps, and must not time out on more than 20 values; `replace` may name only the "
    "pattern's groups; each of `languages` must be the project's, and the source language (in "
    "`languages` or an item's `language`) needs includeSource; `cursor` must be a nextCursor; "
    "`items` name each value (translationId and language) once."
)


@replace_api.post("/projects/<uuid:project_id>/replace")
@documented(
    "Find and replace in the project's values: a preview, then the apply of the ticked changes",
    tags=("translations",),
    body=ReplaceRequest,
    responses={200: ReplaceResult},
    description=DESCRIPTION,
)
def replace_values(project_id):
    data = load_body(ReplaceRequest)
    result = replace_text(current_actor(), str(project_id), data)
    return operation_response(ReplaceResult().dump(result), result.get("operationId"))
