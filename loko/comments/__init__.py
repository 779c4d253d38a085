"""Comments on keys: threads per key, for the whole key or one of its languages, which
editors resolve and reopen.

- ``models.py``: the ``comments`` table.
- ``schemas.py``: what the endpoints take and answer.
- ``service.py``: list, add, resolve or reopen, edit and delete; the open counts of a page
  of keys in one statement (the editor's grid).
- ``api.py`` / ``views.py``: REST and the editor's details panel forms.
"""
