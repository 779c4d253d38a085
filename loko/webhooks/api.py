"""/api/projects/{id}/webhooks: a project's webhook endpoints and their deliveries."""

from flask import Blueprint

from loko.auth.identity import current_actor
from loko.auth.schemas import SuccessOut
from loko.http import load_body
from loko.openapi import documented
from loko.webhooks import service
from loko.webhooks.schemas import (
    DeliveryList,
    RedeliveryOut,
    WebhookCreated,
    WebhookEnvelope,
    WebhookIn,
    WebhookList,
    WebhookPatch,
)

webhooks_api = Blueprint("webhooks_api", __name__)
BASE = "/projects/<uuid:project_id>/webhooks"
HOOK = BASE + "/<uuid:hook_id>"
TAGS = ("webhooks",)
SESSION = ("session",)


@webhooks_api.get(BASE)
@documented("The project's webhook endpoints", tags=TAGS, auth=SESSION, responses={200: WebhookList})
def list_webhooks(project_id):
    return WebhookList().dump({"webhooks": service.list_webhooks(current_actor(), str(project_id))})


@webhooks_api.post(BASE)
@documented(
    "Add a webhook endpoint",
    tags=TAGS,
    auth=SESSION,
    body=WebhookIn,
    responses={201: WebhookCreated},
    description=(
        "Answers the endpoint's signing secret (`whsec_` and base64), this once only; it is "
        "stored encrypted. Each event is POSTed as JSON `{type, timestamp, data}` with the "
        "Standard Webhooks headers `webhook-id`, `webhook-timestamp` and `webhook-signature`."
    ),
)
def create_webhook(project_id):
    hook, secret = service.create_webhook(current_actor(), str(project_id), load_body(WebhookIn))
    return WebhookCreated().dump({"webhook": hook, "secret": secret}), 201


@webhooks_api.get(HOOK)
@documented(
    "A webhook endpoint (never its secret)", tags=TAGS, auth=SESSION, responses={200: WebhookEnvelope}
)
def get_webhook(project_id, hook_id):
    return WebhookEnvelope().dump(
        {"webhook": service.get_webhook(current_actor(), str(project_id), str(hook_id))}
    )


@webhooks_api.patch(HOOK)
@documented(
    "Change a webhook endpoint: its URL, description, events, or enable or disable it",
    tags=TAGS,
    auth=SESSION,
    body=WebhookPatch,
    responses={200: WebhookEnvelope},
)
def update_webhook(project_id, hook_id):
    hook = service.update_webhook(current_actor(), str(project_id), str(hook_id), load_body(WebhookPatch))
    return WebhookEnvelope().dump({"webhook": hook})


@webhooks_api.delete(HOOK)
@documented(
    "Delete a webhook endpoint and its deliveries", tags=TAGS, auth=SESSION, responses={200: SuccessOut}
)
def delete_webhook(project_id, hook_id):
    service.delete_webhook(current_actor(), str(project_id), str(hook_id))
    return SuccessOut().dump({"success": True})


@webhooks_api.get(HOOK + "/deliveries")
@documented(
    "The endpoint's latest delivery attempts (newest first)",
    tags=TAGS,
    auth=SESSION,
    responses={200: DeliveryList},
)
def list_deliveries(project_id, hook_id):
    deliveries = service.list_deliveries(current_actor(), str(project_id), str(hook_id))
    return DeliveryList().dump({"deliveries": deliveries})


@webhooks_api.post(HOOK + "/deliveries/<uuid:delivery_id>/redeliver")
@documented(
    "Deliver a message again",
    tags=TAGS,
    auth=SESSION,
    responses={202: RedeliveryOut},
    errors=(401, 403, 404),
    description="Queues the delivery's message again: the same `webhook-id` and body, a new signature.",
)
def redeliver(project_id, hook_id, delivery_id):
    answer = service.redeliver(current_actor(), str(project_id), str(hook_id), str(delivery_id))
    return RedeliveryOut().dump(answer), 202
