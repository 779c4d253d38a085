"""Notifications: events turned into one message per person, in the app (the bell), by
e-mail at once or in a daily or weekly digest, as each person chooses per project and kind.

- ``models.py``: ``notification_rules`` and ``notifications``.
- ``service.py``: the listener and its after-commit hook, the fan-out, the e-mails and
  digests, the reads and choices; ``mail.py``: SMTP and the messages; ``jobs.py``.
- ``api.py`` / ``views.py``: REST and the pages (the list, the choices, unsubscribe).
"""
