"""Proposals: texts proposed for a key and language by contributors, editors, keys and
pre-translations, voted on by people and accepted or rejected by reviewers (the review queue).
Not the ``suggestions`` of ``GET /api/projects/{id}/suggestions`` (memory matches and machine
translations offered while writing): a proposal is stored, voted on and decided.

- ``models.py``: the ``proposals`` and ``proposal_votes`` tables.
- ``schemas.py``: what the endpoints take and answer.
- ``service.py``: propose, vote, the queue, accept, reject, in bulk too, the settings.
- ``api.py`` / ``views.py``: REST and the review queue's page.
"""
