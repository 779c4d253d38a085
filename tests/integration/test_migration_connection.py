"""The migrations run with SQLite's foreign keys off; the app that ran them must not get that
connection back, or a delete would skip its ON DELETE CASCADE."""

from sqlalchemy import text

from loko import create_app
from loko.database import upgrade_schema as upgrade
from loko.extensions import db


def test_foreign_keys_are_on_in_the_app_that_ran_the_migrations(tmp_path):
    app = create_app({"LOKO_DATABASE_URL": f"sqlite:///{tmp_path / 'loko.db'}", "LOKO_SECRET_KEY": "test"})
    with app.app_context():
        upgrade()
        assert db.session.execute(text("PRAGMA foreign_keys")).scalar_one() == 1
        db.session.remove()
        db.engine.dispose()
