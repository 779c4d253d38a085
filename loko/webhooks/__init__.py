"""Outgoing webhooks: a project's endpoints, the events they want, and their deliveries.

- ``models.py``: the ``webhooks`` table (one endpoint: URL, events, encrypted secret) and
  ``webhook_deliveries`` (one row per delivery attempt).
- ``service.py``: managing endpoints, listening to ``loko.events`` (batched per transaction,
  one delivery job per matching endpoint, enqueued in the writing transaction), delivering.
- ``jobs.py``: the delivery job's handler, and the daily pruning of the delivery log.
- ``api.py`` / ``views.py``: REST and the project's Webhooks page.
"""
