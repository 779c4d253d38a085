"""Packing a push and placing a pull: ZIP entries, paths, bytes compared before writing."""

import io
import os
import zipfile

import pytest

from loko.client.archive import ArchiveError, pack, unpack
from loko.client.config import FileSet
from loko.client.sync import PullError, apply_pull, local_files, plan_pull, upload_of
from tests.client.conftest import write, zip_of

JSON = FileSet("locales/{language}/{fileName}.json", "json")


def test_upload_is_one_zip_of_the_files_by_their_relative_paths(tmp_path):
    write(tmp_path, {"locales/en/a.json": b'{"k":"v"}', "locales/de/shop/b.json": b"{}"})
    upload = upload_of(tmp_path, JSON, local_files(tmp_path, JSON, None))
    with zipfile.ZipFile(io.BytesIO(upload.archive)) as archive:
        assert {name: archive.read(name) for name in archive.namelist()} == {
            "locales/de/shop/b.json": b"{}",
            "locales/en/a.json": b'{"k":"v"}',
        }


def test_local_files_keep_only_the_languages_asked_for(tmp_path):
    write(tmp_path, {"locales/en/a.json": "{}", "locales/de/a.json": "{}", "locales/fr/a.json": "{}"})
    assert [m.path for m in local_files(tmp_path, JSON, ("de", "fr"))] == [
        "locales/de/a.json",
        "locales/fr/a.json",
    ]


def test_pack_is_deterministic():
    assert pack([("b", b"2"), ("a", b"1")]) == pack([("a", b"1"), ("b", b"2")])


def test_unpack_refuses_entries_that_leave_the_folder():
    with pytest.raises(ArchiveError, match="outside"):
        unpack(zip_of({"../../etc/cron.d/x": b"boom"}))


def test_unpack_refuses_what_is_not_a_zip():
    with pytest.raises(ArchiveError):
        unpack(b"<html>proxy error</html>")


def test_plan_compares_bytes_with_the_local_files(tmp_path):
    write(tmp_path, {"locales/de/a.json": b'{"k":"v"}', "locales/en/a.json": b"{}"})
    export = zip_of({"de/a.json": b'{"k":"v"}', "en/a.json": b'{"k":"w"}', "fr/a.json": b"{}"})
    planned = plan_pull(tmp_path, [JSON], export)
    assert [(p.path, p.change) for p in planned] == [
        ("locales/de/a.json", "unchanged"),
        ("locales/en/a.json", "changed"),
        ("locales/fr/a.json", "new"),
    ]


def test_pull_writes_only_the_files_that_differ(tmp_path):
    write(tmp_path, {"locales/de/a.json": b"{}", "locales/en/a.json": b"{}"})
    os.utime(tmp_path / "locales/de/a.json", ns=(1_000_000_000, 1_000_000_000))
    planned = plan_pull(tmp_path, [JSON], zip_of({"de/a.json": b"{}", "en/a.json": b'{"k":"v"}'}))
    written = apply_pull(tmp_path, planned)
    assert [p.path for p in written] == ["locales/en/a.json"]
    assert (tmp_path / "locales/en/a.json").read_bytes() == b'{"k":"v"}'
    assert (tmp_path / "locales/de/a.json").stat().st_mtime_ns == 1_000_000_000


def test_pull_keeps_a_files_permissions(tmp_path):
    write(tmp_path, {"locales/de/a.json": b"{}"})
    (tmp_path / "locales/de/a.json").chmod(0o640)
    apply_pull(tmp_path, plan_pull(tmp_path, [JSON], zip_of({"de/a.json": b'{"k":"v"}'})))
    assert (tmp_path / "locales/de/a.json").stat().st_mode & 0o777 == 0o640


def test_plan_refuses_an_unsafe_entry_before_anything_is_written(tmp_path):
    export = zip_of({"de/a.json": b"{}", "de/../../evil.json": b"{}"})
    with pytest.raises(PullError, match="outside"):
        plan_pull(tmp_path, [JSON], export)
    assert list(tmp_path.iterdir()) == []


def test_plan_refuses_to_follow_a_link_out_of_the_folder(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "repo"
    (root / "locales").mkdir(parents=True)
    (root / "locales" / "de").symlink_to(outside)
    with pytest.raises(PullError, match="outside"):
        plan_pull(root, [JSON], zip_of({"de/a.json": b"{}"}))


WEB = FileSet("web/{language}/{fileName}.json", "json")
APP = FileSet("app/src/{language}/{fileName}.json", "json")


def test_a_project_file_goes_to_the_entry_under_whose_template_it_exists(tmp_path):
    write(tmp_path, {"web/en/web.json": b"{}", "app/src/en/mobile.json": b"{}"})
    planned = plan_pull(tmp_path, [WEB, APP], zip_of({"de/web.json": b"{}", "de/mobile.json": b"{}"}))
    assert [p.path for p in planned] == ["app/src/de/mobile.json", "web/de/web.json"]


def test_a_project_file_under_no_template_goes_to_the_first_entry_of_its_format(tmp_path):
    write(tmp_path, {"app/src/en/mobile.json": b"{}"})
    planned = plan_pull(tmp_path, [WEB, APP], zip_of({"de/checkout.json": b"{}"}))
    assert [p.path for p in planned] == ["web/de/checkout.json"]


def test_a_project_file_under_two_templates_goes_to_both(tmp_path):
    write(tmp_path, {"web/en/shared.json": b"{}", "app/src/de/shared.json": b"{}"})
    planned = plan_pull(tmp_path, [WEB, APP], zip_of({"fr/shared.json": b"{}"}))
    assert [p.path for p in planned] == ["app/src/fr/shared.json", "web/fr/shared.json"]


def test_multilingual_entries_have_no_language_folder(tmp_path):
    csv = FileSet("data/{fileName}.csv", "csv")
    planned = plan_pull(tmp_path, [csv], zip_of({"app.csv": b"key,en\n"}))
    assert [(p.path, p.data) for p in planned] == [("data/app.csv", b"key,en\n")]
