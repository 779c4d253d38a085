"""An organization's glossary: terms in a language, their translations per language (allowed
or forbidden), found in a project's source texts by the editor, the suggestions, the machine
translation context and the ``glossary`` check (``loko.checks.glossary``).

- ``models.py``: the tables (``glossaries`` holds each organization's revision, the key of
  the cached glossary the write paths use).
- ``matching.py``: the glossary as the write paths and the editor use it, cached per
  organization and revision, and the terms found in a text.
- ``files.py``: CSV and TBX readers and writers over plain entries.
- ``service.py``: the use cases; ``api.py``, ``views.py``: REST and the organization page.
- ``jobs.py``: re-checking an organization's values after its glossary changed.
"""
