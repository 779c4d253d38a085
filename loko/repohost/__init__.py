"""Repository integration: translations go to a code repository as one pull request per
project, and come back from its base branch.

- ``service.py``: configure (the token encrypted at rest), push, sync, the webhook (which
  queues a sync job), one run per project at a time; the REST handlers (``api.py``), the
  page (``views.py``) and the CLI call it.
- ``jobs.py``: the webhook's sync as a background job, waiting while another run holds the
  project.
- ``net.py``: git's outbound client (urllib3 for dulwich) on the shared outbound room
  (``loko/outbound.py``: the address check, no private, loopback or link-local address
  unless ``LOKO_OUTBOUND_ALLOW_PRIVATE``, and the API client with timeouts whose every
  connection is checked); ``ProviderError`` for a provider's refusal.
- ``git.py``: git over HTTPS through dulwich (no ``git`` binary): a shallow fetch of the base
  branch's files, and a commit of changed files pushed to the project's branch.
- ``providers/``: GitHub, GitLab and Gitea behind one small interface (``providers/base.py``):
  the git URL and credentials, the connection check, pull requests, and webhook signatures.
"""
