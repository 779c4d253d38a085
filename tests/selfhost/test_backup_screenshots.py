"""``loko backup`` carries the screenshots' image files in the backup file, and ``loko
restore`` writes them back into the screenshots' folder, refusing a backup that would write
anything else or anywhere else."""

import hashlib
import io
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from PIL import Image

from loko.database import upgrade_schema as upgrade
from loko.extensions import db
from tests.factories import CallerClient, make_key, make_org, make_project, make_user
from tests.selfhost import test_backup as backup_tests
from tests.selfhost.conftest import app_on
from tests.selfhost.test_backup import table_rows


class Instance(backup_tests.Instance):
    """A Loko installation of its own: a SQLite file and a screenshots' folder."""

    def __init__(self, folder: Path):
        self.path, self.images = folder / "loko.db", folder / "screenshots"
        folder.mkdir()
        self.app = app_on(f"sqlite:///{self.path}", LOKO_SCREENSHOTS_DIR=str(self.images))

    def files(self) -> list[str]:
        if not self.images.exists():
            return []
        return sorted(
            path.relative_to(self.images).as_posix() for path in self.images.rglob("*") if path.is_file()
        )


@pytest.fixture
def instance(tmp_path):
    """Installations made in the test, closed after it."""
    made: list[Instance] = []
    yield lambda name: made.append(Instance(tmp_path / name)) or made[-1]
    for each in made:
        each.close()


def picture(color) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (80, 60), color).save(out, "PNG")
    return out.getvalue()


def with_screenshots(source: Instance, count: int = 2) -> tuple[str, list[dict]]:
    """An owner, a project and its key, and ``count`` screenshots uploaded with the key;
    ``(the key, the screenshots)``."""
    with source.app.app_context():
        upgrade()
        project = make_project(make_org(make_user("ada@example.test", "Ada")))
        key, _ = make_key(project)
        project_id = project.id
        db.engine.dispose()
    files = [(io.BytesIO(picture((n, 2 * n % 256, 90))), f"shot-{n}.png") for n in range(count)]
    response = CallerClient(source.app, {"bearer": key}).post(
        f"/api/projects/{project_id}/screenshots", data={"files": files}, content_type="multipart/form-data"
    )
    assert response.status_code == 201, response.json
    return key, response.json["screenshots"]


def images_served(app, key: str, shots: list[dict]) -> dict[str, bytes]:
    client = CallerClient(app, {"bearer": key})
    served = {}
    for shot in shots:
        for kind, url in shot["urls"].items():
            with client.get(url) as response:
                assert response.status_code == 200, (kind, url)
                served[f"{shot['id']} {kind}"] = response.data
    return served


@pytest.fixture
def backed_up(instance, tmp_path):
    """A backup of an installation with two screenshots: ``(path, key, screenshots, the
    images as that installation serves them)``."""
    source = instance("source")
    key, shots = with_screenshots(source)
    result = source.cli("backup", tmp_path / "backup.db")
    assert result.exit_code == 0, result.output
    return tmp_path / "backup.db", key, shots, images_served(source.app, key, shots)


def test_a_restore_on_a_fresh_machine_serves_every_screenshot(instance, backed_up):
    path, key, shots, served = backed_up
    target = instance("fresh")
    result = target.cli("restore", path)
    assert result.exit_code == 0, result.output
    assert "image files: 6" in result.output
    assert images_served(target.app, key, shots) == served


def test_the_image_files_go_into_the_backup_and_not_into_the_live_database(instance, tmp_path):
    source = instance("source")
    with_screenshots(source)
    result = source.cli("backup", tmp_path / "backup.db")
    assert result.exit_code == 0, result.output
    assert "image files: 6" in result.output
    with closing(sqlite3.connect(tmp_path / "backup.db")) as backup:
        carried = sorted(row[0] for row in backup.execute("SELECT path FROM backup_images"))
    assert carried == source.files()
    assert "backup_images" not in table_rows(source.path)


def test_a_restored_database_keeps_no_table_of_images(instance, backed_up):
    path, *_ = backed_up
    target = instance("fresh")
    assert target.cli("restore", path).exit_code == 0
    assert "backup_images" not in table_rows(target.path)
    assert target.path.stat().st_size < path.stat().st_size


def test_an_older_backup_without_images_still_restores(instance, backed_up):
    path, key, shots, _served = backed_up
    with closing(sqlite3.connect(path)) as backup:
        backup.execute("DROP TABLE backup_images")
        backup.execute("VACUUM")
    target = instance("fresh")
    result = target.cli("restore", path)
    assert result.exit_code == 0, result.output
    assert "image files" not in result.output
    assert target.files() == []
    listed = CallerClient(target.app, {"bearer": key}).get(shots[0]["urls"]["image"].rsplit("/", 2)[0])
    assert listed.status_code == 200
    assert {shot["id"] for shot in listed.json["screenshots"]} == {shot["id"] for shot in shots}


CRAFTED = {
    "parent folder": ("../../escaped.png", None),
    "absolute path": ("{tmp}/escaped.png", None),
    "sibling of the folder": ("ab/../../escaped.png", None),
    "not an image's name": ("ab/notes.txt", None),
    "original under another picture's name": (None, b"other bytes"),
}


@pytest.mark.parametrize("case", list(CRAFTED))
def test_a_crafted_backup_is_refused_and_writes_nothing(instance, backed_up, tmp_path, case):
    path, *_ = backed_up
    name, data = CRAFTED[case]
    with closing(sqlite3.connect(path)) as backup:
        if name is None:  # an original whose bytes are not those its name hashes
            (name,) = backup.execute(
                "SELECT path FROM backup_images WHERE path LIKE '%.png' LIMIT 1"
            ).fetchone()
            backup.execute("UPDATE backup_images SET data = ? WHERE path = ?", (data, name))
        else:
            name = name.format(tmp=tmp_path).replace("ab/", f"{hashlib.sha256(b'x').hexdigest()[:2]}/")
            backup.execute("INSERT INTO backup_images VALUES (?, ?)", (name, b"x"))
        backup.commit()
    target = instance("fresh")
    result = target.cli("restore", path)
    assert result.exit_code != 0
    assert "nothing was restored" in result.output
    assert not target.path.exists()
    assert target.files() == []
    assert not [found for found in tmp_path.rglob("escaped.png")]


def test_on_postgresql_backup_and_restore_say_how_to_carry_the_screenshots_folder(tmp_path):
    images = tmp_path / "screenshots"
    app = app_on(
        "postgresql+psycopg://loko:s3cret@db.example.test:5432/loko", LOKO_SCREENSHOTS_DIR=str(images)
    )
    (tmp_path / "loko.dump").write_bytes(b"PGDMP")
    backup = app.test_cli_runner().invoke(args=["backup", str(tmp_path / "loko.dump")])
    restore = app.test_cli_runner().invoke(args=["restore", str(tmp_path / "loko.dump")])
    assert f"tar -czf {tmp_path / 'loko.dump.screenshots.tar.gz'} -C {images} ." in backup.output
    assert f"tar -xzf {tmp_path / 'loko.dump.screenshots.tar.gz'} -C {images}" in restore.output
