"""Durable background jobs kept in Loko's own database: no broker, the same transactions.

- ``models.py``: the ``jobs`` table (one row per job: its state, attempts, progress, result).
- ``registry.py``: handlers by name; a feature registers its own (``repohost/jobs.py``,
  ``imports/jobs.py``, ``translations/jobs.py``) and schedules, so the queue imports no feature.
- ``service.py``: enqueue (in the caller's transaction), claim, complete, retry, cancel,
  progress, and the reads behind the endpoints.
- ``maintenance.py``: the queue's own daily job, deleting jobs finished
  ``LOKO_JOB_RETENTION_DAYS`` ago.
- ``worker.py``: the loop that claims and runs jobs, in threads of ``loko serve`` or in
  ``loko worker`` processes.
- ``api.py``: a project's jobs over REST.
"""
