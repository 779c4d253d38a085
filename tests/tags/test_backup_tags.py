"""Tags go into a backup and come back with its restore; the backup's summary counts them."""

from loko.extensions import db
from loko.tags.models import KeyTag
from loko.tags.service import tag_keys
from tests.selfhost.test_backup import instance, populate  # noqa: F401 - the fixture


def test_a_backup_carries_the_tags_and_a_restore_brings_them_back(instance, tmp_path):  # noqa: F811
    source = instance("source.db").migrate()
    actor, project_id = populate(source.app)
    with source.app.app_context():
        tag_keys(actor, project_id, add=["web"], key_filter={"search": "seed.0001"})
        tagged = db.session.query(KeyTag).count()
    assert tagged == 10  # seed.00010 to seed.00019
    result = source.cli("backup", tmp_path / "backup.db")
    assert result.exit_code == 0, result.output
    assert "tags on keys: 10" in result.output
    target = instance("target.db")
    restored = target.cli("restore", tmp_path / "backup.db")
    assert restored.exit_code == 0, restored.output
    rows = target.rows()
    assert rows["key_tags"] == source.rows()["key_tags"]
    assert len(rows["key_tag_changes"]) == 10
