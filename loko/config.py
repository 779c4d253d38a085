"""Settings: defaults, then ``instance/config.py``, then ``LOKO_*`` environment variables,
then the mapping passed to ``create_app`` (tests and embedding hosts)."""

import os
import secrets
from pathlib import Path

from sqlalchemy.engine import make_url

MAX_REQUEST_BYTES = 4 * 1024 * 1024

DEFAULTS = {
    "LOKO_DATABASE_URL": None,
    "LOKO_SECRET_KEY": None,
    "LOKO_HOST": "127.0.0.1",
    "LOKO_PORT": 8000,
    "LOKO_THREADS": 8,
    "LOKO_PROCESSES": 1,
    "LOKO_ALLOW_SIGNUP": False,
    "LOKO_COOKIE_SECURE": False,
    "LOKO_SESSION_DAYS": 14,
    "LOKO_TRASH_RETENTION_DAYS": 30,
    "LOKO_RATELIMIT_STORAGE_URI": "memory://",
    "LOKO_LOG_FORMAT": "text",
    "LOKO_EXPORT_CACHE_MB": 64,
    "LOKO_MAX_IMPORT_MB": 32,
}

_CONVERTERS = {
    "LOKO_PORT": int,
    "LOKO_THREADS": int,
    "LOKO_PROCESSES": int,
    "LOKO_SESSION_DAYS": int,
    "LOKO_TRASH_RETENTION_DAYS": int,
    "LOKO_EXPORT_CACHE_MB": int,
    "LOKO_MAX_IMPORT_MB": int,
    "LOKO_ALLOW_SIGNUP": "bool",
    "LOKO_COOKIE_SECURE": "bool",
}


def _parse(name, raw):
    kind = _CONVERTERS.get(name)
    if kind == "bool":
        if isinstance(raw, bool):
            return raw
        return str(raw).strip().lower() in {"1", "true", "yes", "on"}
    if kind is int:
        return int(raw)
    return raw


def load_config(app, overrides=None):
    """Fill ``app.config`` with every LOKO_* setting and the Flask settings derived from them."""
    app.config.from_mapping(DEFAULTS)
    app.config.from_pyfile("config.py", silent=True)
    for name in DEFAULTS:
        if name in os.environ:
            app.config[name] = os.environ[name]
    if overrides:
        app.config.from_mapping(overrides)
    for name in DEFAULTS:
        if app.config[name] is not None:
            app.config[name] = _parse(name, app.config[name])

    instance = Path(app.instance_path)
    if not app.config["LOKO_DATABASE_URL"]:
        app.config["LOKO_DATABASE_URL"] = f"sqlite:///{instance / 'loko.db'}"
    if not app.config["LOKO_SECRET_KEY"]:
        app.config["LOKO_SECRET_KEY"] = _instance_secret_key(instance)

    app.config["SECRET_KEY"] = app.config["LOKO_SECRET_KEY"]
    app.config["SQLALCHEMY_DATABASE_URI"] = app.config["LOKO_DATABASE_URL"]
    app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", _engine_options(app.config))
    app.config["MAX_CONTENT_LENGTH"] = MAX_REQUEST_BYTES
    app.config["RATELIMIT_STORAGE_URI"] = app.config["LOKO_RATELIMIT_STORAGE_URI"]
    app.config["RATELIMIT_HEADERS_ENABLED"] = True
    app.json.sort_keys = False


def _engine_options(config) -> dict:
    """A pooled connection for each worker thread: with fewer, a loaded server opens and
    closes connections all the time (and SQLite reads the schema again on each new one).
    The connection used last is handed out first, so that a lightly loaded server keeps
    using the connections whose caches are warm."""
    url = make_url(config["SQLALCHEMY_DATABASE_URI"])
    pool = {"pool_size": config["LOKO_THREADS"], "pool_use_lifo": True}
    if url.get_backend_name() != "sqlite":
        return {"pool_pre_ping": True, **pool}
    if url.database in (None, "", ":memory:"):
        return {}  # one shared connection (Flask-SQLAlchemy's StaticPool)
    return pool


def _instance_secret_key(instance: Path) -> str:
    """Read the installation's secret key, creating it (mode 600) on first start."""
    path = instance / "secret_key"
    instance.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    key = secrets.token_urlsafe(48)
    with os.fdopen(fd, "w") as handle:
        handle.write(key)
    return key
