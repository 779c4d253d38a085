"""Screenshots: pictures of the app per project, and the regions where its keys are shown.

- ``images.py``: an upload read safely (pixel limit first, one format, nothing after the
  image) and re-encoded without metadata, with its thumbnail and preview.
- ``storage.py``: the images as files in the data folder, named by their SHA-256.
- ``models.py``: the ``screenshots`` and ``screenshot_regions`` tables.
- ``schemas.py`` / ``service.py`` / ``api.py``: upload, list, show, serve and delete, and the
  regions of keys (draw, move, confirm, delete), over REST.
"""
