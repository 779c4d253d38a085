"""Tasks: translating or reviewing a frozen set of keys in one language, assigned to
project members, with a due date; progress derived from the values' states.

- ``models.py``: ``tasks``, ``task_keys``, ``task_assignees``.
- ``schemas.py`` / ``service.py``: the use cases (make, list, change, close, report).
- ``api.py`` / ``views.py``: REST and the pages (the board, a task, my tasks).
The assignees' temporary right is decided in ``auth/policy.py``.
"""
