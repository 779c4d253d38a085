"""Pages and their scripts and styles sent gzip-compressed to a browser that accepts it
(``Accept-Encoding: gzip``): an editor page of 165 KB travels as 13 KB, for about 1 ms of
compression. A static asset is compressed once per version (its ETag) and kept. Nothing
else is compressed: the JSON API's exports are kept and revalidated as they are
(docs/consistency.md), and a client that does not ask gets the bytes as before."""

import gzip
from collections import OrderedDict
from threading import Lock

from flask import request

COMPRESSIBLE = frozenset({"text/html", "text/css", "text/javascript", "application/javascript"})
MIN_SIZE = 1024  # below it gzip's header costs about what it saves
LEVEL = 6
KEPT_ASSETS = 64

_assets: OrderedDict[tuple[str, str], bytes] = OrderedDict()
_assets_lock = Lock()


def accepts_gzip() -> bool:
    """Whether the request's Accept-Encoding takes gzip (with a quality above 0)."""
    return request.accept_encodings["gzip"] > 0


def compress_response(response, static: bool) -> None:
    """Compress ``response`` in place when it is a full page or asset the browser may take
    compressed; a response that could be either says so (``Vary``) to every cache."""
    if response.mimetype not in COMPRESSIBLE:
        return
    response.vary.add("Accept-Encoding")
    if (
        response.status_code != 200
        or request.method != "GET"
        or "Content-Encoding" in response.headers
        or not accepts_gzip()
        or (response.is_streamed and not response.direct_passthrough)
    ):
        return
    etag, _weak = response.get_etag()
    body = _kept_asset((request.path, etag), response) if static and etag else _compressed(response)
    if body is None:
        return
    if response.direct_passthrough:  # a kept asset's file, not read
        response.direct_passthrough = False
        close = getattr(response.response, "close", None)
        if close is not None:
            close()
    response.set_data(body)
    response.headers["Content-Encoding"] = "gzip"
    if etag is not None:
        # The same representation, encoded: a weak validator, which If-None-Match compares.
        response.set_etag(etag, weak=True)


def _kept_asset(key: tuple[str, str], response) -> bytes | None:
    """A static asset's compressed body, compressed once per path and ETag."""
    with _assets_lock:
        body = _assets.get(key)
        if body is not None:
            _assets.move_to_end(key)
            return body
    body = _compressed(response)
    if body is not None:
        with _assets_lock:
            _assets[key] = body
            while len(_assets) > KEPT_ASSETS:
                _assets.popitem(last=False)
    return body


def _compressed(response) -> bytes | None:
    if response.direct_passthrough:
        response.direct_passthrough = False
    data = response.get_data()
    if len(data) < MIN_SIZE:
        return None
    return gzip.compress(data, LEVEL, mtime=0)
