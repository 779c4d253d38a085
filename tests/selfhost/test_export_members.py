"""ZIP members kept per process, across two ``loko serve`` processes (SQLite and PostgreSQL):
each process keeps its own members at the data versions they were built at, so a write
through one process shows in the other's next ZIP (byte for byte the same archive, under the
same ETag), and a write to one language leaves another language's export as it was in
both."""

import io
import json
import zipfile

from tests.selfhost.test_consistent_reads import served  # noqa: F401 (the fixture)


def _get(connection, path, bearer, query, etag=None):
    headers = {**bearer, **({"If-None-Match": etag} if etag else {})}
    return connection.request("GET", f"{path}?{query}", headers=headers)


def _patch(connection, path, bearer, language, value):
    update = {"key": "k001", "fileName": "common", "updates": {language: {"value": value}}}
    assert connection.request("PATCH", path, update, bearer)[0] == 200


def test_across_processes_a_zip_of_kept_members_shows_every_write_and_another_language_stays(served):  # noqa: F811
    server, path, bearer = served
    first, second = (connections[0] for connections in server.connections_to_each_worker(1).values())
    _patch(first, path, bearer, "de", "Eins")
    archive, german = "fileName=common&zip=true", "fileName=common&language=de"
    for connection in (first, second):  # each process keeps its members and bodies
        assert _get(connection, path, bearer, archive)[0] == 200
    status, headers, body = _get(first, path, bearer, german)
    assert status == 200
    etag = headers["ETag"]

    _patch(first, path, bearer, "en", "changed in English")
    answers = [_get(connection, path, bearer, archive) for connection in (second, first)]
    assert [status for status, _, _ in answers] == [200, 200]
    assert answers[0][1]["ETag"] == answers[1][1]["ETag"]
    assert answers[0][2] == answers[1][2]
    with zipfile.ZipFile(io.BytesIO(answers[0][2])) as zipped:
        assert json.loads(zipped.read("en/common.json"))["k001"] == "changed in English"
        assert json.loads(zipped.read("de/common.json"))["k001"] == "Eins"
    for connection in (second, first):
        assert _get(connection, path, bearer, german, etag)[0] == 304
        assert _get(connection, path, bearer, german)[1]["ETag"] == etag

    _patch(second, path, bearer, "de", "Zwei")
    status, headers, body = _get(first, path, bearer, german, etag)
    assert status == 200 and headers["ETag"] != etag
    assert json.loads(body)["de"]["common"]["k001"] == "Zwei"
    _, _, zipped_body = _get(first, path, bearer, archive)
    assert zipped_body == _get(second, path, bearer, archive)[2]
