"""The audit log of an organization: who signed in (or failed to), who changed its members,
roles, invitations, API keys, settings, links, repository and provider configuration and
webhooks, and which API keys exported whole projects.

``service.record`` writes one event in the caller's transaction (flush only); the services
that change those things call it. Owners and admins read the log through
``/api/organizations/{id}/audit`` and the organization's "Audit log" page; events older than
``LOKO_AUDIT_RETENTION_DAYS`` are deleted by a daily job (``jobs.py``)."""
