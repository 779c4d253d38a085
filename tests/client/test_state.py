"""The pull state: the ETag is sent back only while the last pull's files are intact."""

import json

from loko.client.state import PullRecord, PullState, digest
from tests.client.conftest import write


def record_of(tmp_path, files: dict[str, bytes], etag='"v1"', languages=None) -> PullRecord:
    write(tmp_path, files)
    return PullRecord(etag, languages, {path: digest(data) for path, data in files.items()})


def test_state_round_trips_through_its_file(tmp_path):
    state = PullState(tmp_path)
    state.remember("json", PullRecord('"v1"', ("de",), {"locales/de/a.json": "abc"}))
    state.save()
    assert PullState.load(tmp_path, print).get("json") == PullRecord(
        '"v1"', ("de",), {"locales/de/a.json": "abc"}
    )


def test_state_folder_ignores_itself_in_git(tmp_path):
    PullState(tmp_path).save()
    assert (tmp_path / ".loko" / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "*"


def test_missing_state_is_empty(tmp_path):
    assert PullState.load(tmp_path, print).records == {}


def test_unreadable_state_is_empty_with_a_warning(tmp_path):
    write(tmp_path, {".loko/state.json": "{not json"})
    warnings = []
    assert PullState.load(tmp_path, warnings.append).records == {}
    assert warnings


def test_state_of_another_shape_is_replaced(tmp_path):
    write(tmp_path, {".loko/state.json": json.dumps({"formats": {"json": "oops"}})})
    warnings = []
    assert PullState.load(tmp_path, warnings.append).records == {}
    assert warnings


def test_etag_is_sent_while_the_files_are_intact(tmp_path):
    record = record_of(tmp_path, {"l/de/a.json": b"{}"})
    assert record.etag_to_send(tmp_path, None) == '"v1"'


def test_etag_is_not_sent_when_a_file_was_edited(tmp_path):
    record = record_of(tmp_path, {"l/de/a.json": b"{}"})
    write(tmp_path, {"l/de/a.json": b'{"a":"b"}'})
    assert record.etag_to_send(tmp_path, None) is None


def test_etag_is_not_sent_when_a_file_was_deleted(tmp_path):
    record = record_of(tmp_path, {"l/de/a.json": b"{}"})
    (tmp_path / "l/de/a.json").unlink()
    assert record.etag_to_send(tmp_path, None) is None


def test_etag_is_not_sent_for_other_languages(tmp_path):
    record = record_of(tmp_path, {"l/de/a.json": b"{}"}, languages=("de",))
    assert record.etag_to_send(tmp_path, None) is None
    assert record.etag_to_send(tmp_path, ("de",)) == '"v1"'
