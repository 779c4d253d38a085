"""Settings: defaults, then ``config.py`` in the data folder, then ``LOKO_*`` environment
variables, then the mapping passed to ``create_app`` (tests and embedding hosts).

The data folder holds the SQLite database (``loko.db``), the secret key generated on first
start (``secret_key``) and the optional ``config.py``. It is, first that applies:

- ``LOKO_DATA_DIR``, from the environment or the mapping (``config.py`` cannot move the
  folder it is read from);
- ``./loko-data`` in the working directory for the one-file build (``dist/loko``, which
  unpacks its own files to a temporary folder on each run, so nothing can be kept beside
  them);
- Flask's instance folder otherwise: ``instance/`` in a source checkout.

The folder is created when something is stored there: the default SQLite database or a
generated secret key."""

import os
import secrets
import sys
from pathlib import Path

from sqlalchemy.engine import make_url

MAX_REQUEST_BYTES = 4 * 1024 * 1024

FROZEN_DATA_DIR = "loko-data"

DEFAULTS = {
    "LOKO_DATA_DIR": None,
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
    "LOKO_EXPORT_MEMBERS_MB": 32,
    "LOKO_MAX_IMPORT_MB": 32,
    # Screenshots: where their images are kept (default: the data folder's screenshots/),
    # and the limits of an image, of an upload and of a project.
    "LOKO_SCREENSHOTS_DIR": None,
    "LOKO_SCREENSHOT_MAX_MB": 10,
    "LOKO_MAX_SCREENSHOT_UPLOAD_MB": 64,
    "LOKO_SCREENSHOT_MAX_PIXELS": 40_000_000,
    "LOKO_SCREENSHOTS_PER_PROJECT": 10_000,
    # The longest side, in pixels, of the screenshot sent to a language model that sees images.
    "LOKO_SCREENSHOT_MODEL_SIDE": 512,
    # Outbound calls (repository hosts, webhooks, machine translation) may reach private,
    # loopback and link-local addresses; the older name still works for all of them.
    "LOKO_OUTBOUND_ALLOW_PRIVATE": False,
    "LOKO_REPOHOST_ALLOW_PRIVATE": False,
    "LOKO_TRUSTED_PROXY": None,
    "LOKO_WORKER_THREADS": 1,
    "LOKO_JOB_STALE_SECONDS": 60,
    "LOKO_JOB_RETENTION_DAYS": 30,
    "LOKO_WEBHOOK_DELIVERY_DAYS": 30,
    # Single sign-on: the OpenID providers (a JSON list, see loko/sso/providers.py), and
    # whether accounts may still sign in and sign up with a password.
    "LOKO_OIDC_PROVIDERS": None,
    "LOKO_PASSWORD_SIGNIN": True,
    "LOKO_AUDIT_RETENTION_DAYS": 365,
    # E-mail (notifications and their digests): the SMTP server, its port, the account and
    # password, "starttls" (the default), "tls" (implicit TLS, port 465) or "none", and the
    # sender, and a file of CA certificates to trust instead of the system's (a private mail
    # server's). Without a host no e-mail goes out and the pages say so.
    "LOKO_SMTP_HOST": None,
    "LOKO_SMTP_PORT": 587,
    "LOKO_SMTP_USER": None,
    "LOKO_SMTP_PASSWORD": None,
    "LOKO_SMTP_TLS": "starttls",
    "LOKO_SMTP_CA_FILE": None,
    "LOKO_MAIL_FROM": None,
    # How long the message of new keys waits for more: the keys made by one person in a
    # project meanwhile are told in one message.
    "LOKO_NEW_KEYS_WAIT_SECONDS": 10,
    # The address people open Loko at, for the links in e-mails (default: host and port).
    "LOKO_PUBLIC_URL": None,
    # The web app's language when neither the account nor the browser names a shipped one.
    "LOKO_DEFAULT_LOCALE": "en",
}

_CONVERTERS = {
    "LOKO_PORT": int,
    "LOKO_THREADS": int,
    "LOKO_PROCESSES": int,
    "LOKO_SESSION_DAYS": int,
    "LOKO_TRASH_RETENTION_DAYS": int,
    "LOKO_EXPORT_CACHE_MB": int,
    "LOKO_EXPORT_MEMBERS_MB": int,
    "LOKO_MAX_IMPORT_MB": int,
    "LOKO_SCREENSHOT_MAX_MB": int,
    "LOKO_MAX_SCREENSHOT_UPLOAD_MB": int,
    "LOKO_SCREENSHOT_MAX_PIXELS": int,
    "LOKO_SCREENSHOTS_PER_PROJECT": int,
    "LOKO_SCREENSHOT_MODEL_SIDE": int,
    "LOKO_WORKER_THREADS": int,
    "LOKO_JOB_STALE_SECONDS": int,
    "LOKO_JOB_RETENTION_DAYS": int,
    "LOKO_WEBHOOK_DELIVERY_DAYS": int,
    "LOKO_AUDIT_RETENTION_DAYS": int,
    "LOKO_SMTP_PORT": int,
    "LOKO_NEW_KEYS_WAIT_SECONDS": int,
    "LOKO_ALLOW_SIGNUP": "bool",
    "LOKO_COOKIE_SECURE": "bool",
    "LOKO_OUTBOUND_ALLOW_PRIVATE": "bool",
    "LOKO_REPOHOST_ALLOW_PRIVATE": "bool",
    "LOKO_PASSWORD_SIGNIN": "bool",
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
    data = data_folder(app, overrides)
    app.instance_path = str(data)
    app.config.from_pyfile(str(data / "config.py"), silent=True)
    for name in DEFAULTS:
        if name in os.environ:
            app.config[name] = os.environ[name]
    if overrides:
        app.config.from_mapping(overrides)
    for name in DEFAULTS:
        if app.config[name] is not None:
            app.config[name] = _parse(name, app.config[name])

    app.config["LOKO_DATA_DIR"] = str(data)
    if not app.config["LOKO_SCREENSHOTS_DIR"]:
        app.config["LOKO_SCREENSHOTS_DIR"] = str(data / "screenshots")
    if not app.config["LOKO_DATABASE_URL"]:
        _create_data_folder(data)
        app.config["LOKO_DATABASE_URL"] = f"sqlite:///{data / 'loko.db'}"
    if not app.config["LOKO_SECRET_KEY"]:
        app.config["LOKO_SECRET_KEY"] = _instance_secret_key(data)

    app.config["SECRET_KEY"] = app.config["LOKO_SECRET_KEY"]
    app.config["SQLALCHEMY_DATABASE_URI"] = app.config["LOKO_DATABASE_URL"]
    app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", _engine_options(app.config))
    app.config["MAX_CONTENT_LENGTH"] = MAX_REQUEST_BYTES
    app.json.sort_keys = False


def data_folder(app, overrides=None) -> Path:
    """The folder of ``loko.db``, ``secret_key`` and ``config.py`` (see the module docstring)."""
    chosen = (overrides or {}).get("LOKO_DATA_DIR") or os.environ.get("LOKO_DATA_DIR")
    if chosen:
        return Path(chosen).expanduser().absolute()
    if getattr(sys, "frozen", False):
        return Path.cwd() / FROZEN_DATA_DIR
    return Path(app.instance_path)


def _create_data_folder(folder: Path) -> None:
    """Only its owner may read a new data folder: it holds the database and the key."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)


def _engine_options(config) -> dict:
    """A pooled connection for each worker thread: with fewer, a loaded server opens and
    closes connections all the time (and SQLite reads the schema again on each new one).
    The connection used last is handed out first, so that a lightly loaded server keeps
    using the connections whose caches are warm."""
    url = make_url(config["SQLALCHEMY_DATABASE_URI"])
    pool = {"pool_size": config["LOKO_THREADS"], "pool_use_lifo": True}
    if url.get_backend_name() != "sqlite":
        return pool  # a connection idle for a while is pinged first (``configure_postgresql``)
    if url.database in (None, "", ":memory:"):
        return {}  # one shared connection (Flask-SQLAlchemy's StaticPool)
    return pool


def _instance_secret_key(instance: Path) -> str:
    """Read the installation's secret key, creating it (mode 600) on first start."""
    path = instance / "secret_key"
    _create_data_folder(instance)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    key = secrets.token_urlsafe(48)
    with os.fdopen(fd, "w") as handle:
        handle.write(key)
    return key
