"""Settings: defaults, ``instance/config.py``, LOKO_* environment variables and the
mapping given to ``create_app`` (decisions section 2)."""

import json
import logging
import stat
from datetime import timedelta

import flask
import pytest
import sqlalchemy as sa

from loko import create_app
from loko.auth.models import Session
from loko.config import DEFAULTS
from loko.extensions import db


@pytest.fixture
def instance_path(tmp_path, monkeypatch):
    """Make ``create_app`` use a fresh instance folder and see no LOKO_* variables."""
    path = tmp_path / "instance"

    real_flask = flask.Flask

    def flask_with_temporary_instance(import_name, **kwargs):
        return real_flask(import_name, instance_path=str(path), **kwargs)

    monkeypatch.setattr(flask, "Flask", flask_with_temporary_instance)
    for name in DEFAULTS:
        monkeypatch.delenv(name, raising=False)
    return path


@pytest.fixture
def make_app(instance_path):
    apps = []

    def make(config=None):
        app = create_app(config)
        apps.append(app)
        return app

    yield make
    for app in apps:
        with app.app_context():
            db.engine.dispose()


# --- secret key --------------------------------------------------------------------------


def test_secret_key_is_generated_into_the_instance_folder(make_app, instance_path):
    app = make_app()
    secret_file = instance_path / "secret_key"
    assert secret_file.read_text() == app.config["SECRET_KEY"] == app.config["LOKO_SECRET_KEY"]
    assert len(app.config["SECRET_KEY"]) >= 32


def test_generated_secret_key_file_has_mode_600(make_app, instance_path):
    make_app()
    assert stat.S_IMODE((instance_path / "secret_key").stat().st_mode) == 0o600


def test_generated_secret_key_is_reused_on_the_next_start(make_app):
    assert make_app().config["SECRET_KEY"] == make_app().config["SECRET_KEY"]


def test_given_secret_key_is_used_and_not_written(make_app, instance_path, monkeypatch):
    monkeypatch.setenv("LOKO_SECRET_KEY", "from-the-environment")
    app = make_app()
    assert app.config["SECRET_KEY"] == "from-the-environment"
    assert not (instance_path / "secret_key").exists()


# --- defaults and sources ----------------------------------------------------------------


def test_defaults_match_the_documented_table(make_app, instance_path):
    config = make_app().config
    assert config["LOKO_DATABASE_URL"] == f"sqlite:///{instance_path / 'loko.db'}"
    assert (config["LOKO_HOST"], config["LOKO_PORT"], config["LOKO_THREADS"]) == ("127.0.0.1", 8000, 8)
    assert config["LOKO_ALLOW_SIGNUP"] is False
    assert config["LOKO_COOKIE_SECURE"] is False
    assert config["LOKO_SESSION_DAYS"] == 14
    assert config["LOKO_TRASH_RETENTION_DAYS"] == 30
    assert config["LOKO_RATELIMIT_STORAGE_URI"] == "memory://"
    assert config["LOKO_LOG_FORMAT"] == "text"


def test_request_bodies_are_limited_to_4_mib(make_app):
    assert make_app().config["MAX_CONTENT_LENGTH"] == 4 * 1024 * 1024


def test_environment_variables_override_defaults(make_app, monkeypatch):
    environment = {
        "LOKO_DATABASE_URL": "sqlite:///elsewhere.db",
        "LOKO_HOST": "0.0.0.0",
        "LOKO_PORT": "9000",
        "LOKO_THREADS": "2",
        "LOKO_ALLOW_SIGNUP": "true",
        "LOKO_COOKIE_SECURE": "1",
        "LOKO_SESSION_DAYS": "3",
        "LOKO_TRASH_RETENTION_DAYS": "0",
        "LOKO_RATELIMIT_STORAGE_URI": "redis://127.0.0.1:6379/0",
    }
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    config = make_app().config
    assert config["SQLALCHEMY_DATABASE_URI"] == "sqlite:///elsewhere.db"
    assert (config["LOKO_HOST"], config["LOKO_PORT"], config["LOKO_THREADS"]) == ("0.0.0.0", 9000, 2)
    assert config["LOKO_ALLOW_SIGNUP"] is True
    assert config["LOKO_COOKIE_SECURE"] is True
    assert config["LOKO_SESSION_DAYS"] == 3
    assert config["LOKO_TRASH_RETENTION_DAYS"] == 0
    assert config["LOKO_RATELIMIT_STORAGE_URI"] == "redis://127.0.0.1:6379/0"


@pytest.mark.parametrize("value", ["false", "0", "no", "off", ""])
def test_false_looking_environment_values_are_false(make_app, monkeypatch, value):
    monkeypatch.setenv("LOKO_ALLOW_SIGNUP", value)
    assert make_app().config["LOKO_ALLOW_SIGNUP"] is False


def test_instance_config_file_overrides_defaults(make_app, instance_path):
    instance_path.mkdir(parents=True)
    (instance_path / "config.py").write_text("LOKO_SESSION_DAYS = 5\nLOKO_LOG_FORMAT = 'text'\n")
    assert make_app().config["LOKO_SESSION_DAYS"] == 5


def test_environment_overrides_the_instance_config_file(make_app, instance_path, monkeypatch):
    instance_path.mkdir(parents=True)
    (instance_path / "config.py").write_text("LOKO_SESSION_DAYS = 5\n")
    monkeypatch.setenv("LOKO_SESSION_DAYS", "7")
    assert make_app().config["LOKO_SESSION_DAYS"] == 7


def test_create_app_mapping_overrides_the_environment(make_app, monkeypatch):
    monkeypatch.setenv("LOKO_SESSION_DAYS", "7")
    assert make_app({"LOKO_SESSION_DAYS": 2}).config["LOKO_SESSION_DAYS"] == 2


def test_the_pool_holds_a_connection_per_worker_thread_used_last_first(make_app, instance_path):
    options = make_app({"LOKO_THREADS": 12}).config["SQLALCHEMY_ENGINE_OPTIONS"]
    assert (options["pool_size"], options["pool_use_lifo"]) == (12, True)


def test_an_in_memory_sqlite_database_keeps_its_single_shared_connection(make_app):
    app = make_app({"LOKO_DATABASE_URL": "sqlite://"})
    assert app.config["SQLALCHEMY_ENGINE_OPTIONS"] == {}


# --- settings at work --------------------------------------------------------------------


class TestSessionDaysFromTheEnvironment:
    @pytest.fixture
    def config_overrides(self, monkeypatch):
        monkeypatch.setenv("LOKO_SESSION_DAYS", "3")
        return {}

    def test_sessions_last_the_configured_days(self, app, client):
        response = client.post(
            "/api/auth/signup", json={"email": "ada@example.test", "password": "long enough"}
        )
        assert f"Max-Age={3 * 86400}" in response.headers["Set-Cookie"]
        with app.app_context():
            (session,) = db.session.execute(sa.select(Session)).scalars()
            assert session.expires_at - session.created_at == timedelta(days=3)


class TestJsonLogs:
    @pytest.fixture
    def loko_logger(self, monkeypatch):
        """The "loko" logger without the handler an earlier app installed."""
        logger = logging.getLogger("loko")
        monkeypatch.setattr(logger, "handlers", [])
        return logger

    def test_log_format_json_writes_one_json_object_per_line(
        self, make_app, loko_logger, monkeypatch, capsys
    ):
        monkeypatch.setenv("LOKO_LOG_FORMAT", "json")
        monkeypatch.setenv("LOKO_SECRET_KEY", "test-secret-key")
        app = make_app()

        def explode():
            raise RuntimeError("boom")

        app.add_url_rule("/api/explode", "explode", explode)
        assert app.test_client().get("/api/explode").status_code == 500

        lines = capsys.readouterr().err.strip().splitlines()
        assert lines
        entries = [json.loads(line) for line in lines]
        (entry,) = [e for e in entries if "unhandled error" in e["message"]]
        assert entry["level"] == "ERROR"
        assert entry["logger"] == "loko"
        assert "RuntimeError: boom" in entry["exception"]
        assert entry["time"]

    def test_log_format_text_writes_plain_lines(self, make_app, loko_logger, monkeypatch, capsys):
        monkeypatch.setenv("LOKO_SECRET_KEY", "test-secret-key")
        make_app()
        logging.getLogger("loko").warning("plain words")
        line = capsys.readouterr().err.strip()
        assert line.endswith("WARNING loko: plain words")
