"""LOKO_DATA_DIR: where the SQLite database, the secret key and ``config.py`` live, and the
one-file build's default, ``./loko-data`` (loko/config.py)."""

import stat
import sys

import pytest

from tests.integration.test_config import instance_path, make_app  # noqa: F401  (fixtures)


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    path = tmp_path / "data"
    monkeypatch.setenv("LOKO_DATA_DIR", str(path))
    return path


def test_data_dir_holds_the_database(make_app, data_dir):
    assert make_app().config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{data_dir / 'loko.db'}"


def test_data_dir_holds_the_generated_secret_key(make_app, data_dir, instance_path):
    app = make_app()
    assert (data_dir / "secret_key").read_text() == app.config["SECRET_KEY"]
    assert not instance_path.exists()


def test_a_new_data_dir_is_created_for_its_owner_only(make_app, data_dir):
    make_app()
    assert stat.S_IMODE(data_dir.stat().st_mode) == 0o700


def test_config_file_is_read_from_the_data_dir(make_app, data_dir):
    data_dir.mkdir()
    (data_dir / "config.py").write_text("LOKO_SESSION_DAYS = 5\n")
    assert make_app().config["LOKO_SESSION_DAYS"] == 5


def test_data_dir_can_be_given_to_create_app(make_app, tmp_path):
    app = make_app({"LOKO_DATA_DIR": str(tmp_path / "given")})
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'given' / 'loko.db'}"


def test_data_dir_is_not_created_when_nothing_is_stored_there(make_app, data_dir, tmp_path):
    make_app({"LOKO_DATABASE_URL": f"sqlite:///{tmp_path / 'elsewhere.db'}", "LOKO_SECRET_KEY": "given"})
    assert not data_dir.exists()


def test_one_file_build_defaults_to_loko_data_in_the_working_directory(make_app, tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.chdir(tmp_path)
    app = make_app()
    assert app.config["LOKO_DATA_DIR"] == str(tmp_path / "loko-data")
    assert (tmp_path / "loko-data" / "secret_key").exists()


def test_source_install_keeps_the_instance_folder(make_app, instance_path):
    assert make_app().config["LOKO_DATA_DIR"] == str(instance_path)
