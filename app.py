"""WSGI entry point: ``flask --app app run`` or any WSGI server (``app:app``)."""

from loko import create_app

app = create_app()
