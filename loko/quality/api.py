from flask import Blueprint

from loko.auth.identity import current_actor
from loko.http import load_body, load_query
from loko.openapi import documented
from loko.quality import queue, review
from loko.quality.schemas import (
    ChecksPage,
    ChecksQuery,
    ReviewQueuePage,
    ReviewQueueQuery,
    ReviewRequest,
    ReviewResult,
)

quality_api = Blueprint("quality_api", __name__)
TAGS = ("checks",)


@quality_api.get("/projects/<uuid:project_id>/checks")
@documented(
    "What the checks found: counts per language and check, values waiting for a review, and a page of issues",
    tags=TAGS,
    query=ChecksQuery,
    responses={200: ChecksPage},
    description="Issues of active values only, ordered by file, key, language and check; "
    "`check`, `language` and `fileName` filter the counts and the list alike. Any caller who "
    "may view the project's translations (a read key too).",
)
def list_checks(project_id):
    query = load_query(ChecksQuery)
    filters = {name: query.get(name) for name in ("check", "language", "fileName")}
    page = review.list_issues(current_actor(), str(project_id), filters, query["limit"], query["offset"])
    return ChecksPage().dump(page)


@quality_api.post("/projects/<uuid:project_id>/translations/review")
@documented(
    "Mark values reviewed (canReviewTranslations), or as needing a review again (canEditTranslations)",
    tags=TAGS,
    body=ReviewRequest,
    responses={200: ReviewResult},
    description="Sets the state of the values of `keys` in `fileName` in each of `languages`, "
    "in one transaction. Marking reviewed is for people: org owners and admins, project admins "
    "and project reviewers; API keys (scopes write and read) cannot, and editors cannot. "
    "`needs-review` asks for a review again: whoever may edit translations (a write key too). "
    "Each of `languages` must be a language of the project (400 naming it).",
)
def review_translations(project_id):
    data = load_body(ReviewRequest)
    result = review.set_review_state(
        current_actor(), str(project_id), data["fileName"], data["keys"], data["languages"], data["state"]
    )
    return ReviewResult().dump(result)


@quality_api.get("/projects/<uuid:project_id>/translations/review")
@documented(
    "The review queue: values by review state, check, language and file, with why each waits",
    tags=TAGS,
    query=ReviewQueueQuery,
    responses={200: ReviewQueuePage},
    description="Active values only, ordered by file, key (natural order) and language; "
    "`state=needs-review` is a reviewer's queue. Each value comes with its key, file, language, "
    "text, state, `reason` (why it waits for a review; null in the other states) and the checks "
    "with an open issue in it. `state`, `reason`, `check` (values with an open issue of that "
    "check), `language` and `fileName` filter; `limit` (default 100, at most 1,000) and `offset` "
    "page, `total` counts every match. Any caller who may view the project's translations (a "
    "read key too), in every language.",
)
def list_review_queue(project_id):
    query = load_query(ReviewQueueQuery)
    filters = {name: query.get(name) for name in queue.QUEUE_FILTERS}
    page = queue.review_queue(current_actor(), str(project_id), filters, query["limit"], query["offset"])
    return ReviewQueuePage().dump(page)
