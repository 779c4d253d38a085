"""The two requests the client makes, as the server receives them, and how failures read."""

import httpx
import pytest

from loko.client.remote import CONNECT_TIMEOUT, READ_TIMEOUT, Remote, ServerError
from tests.client.conftest import import_result


def remote_answering(handler) -> Remote:
    return Remote("https://loko.test/base", "p 1", "loko_key", transport=httpx.MockTransport(handler))


def test_import_posts_the_zip_with_the_options():
    seen = []

    def handler(request):
        seen.append(request)
        return httpx.Response(200, json=import_result())

    with remote_answering(handler) as remote:
        remote.import_archive(
            b"PK..",
            format="json",
            path_template="l/{language}/{fileName}.json",
            mode="only-new",
            removed_keys="trash",
            dry_run=True,
        )
    (request,) = seen
    assert request.method == "POST"
    assert request.url.raw_path.split(b"?")[0] == b"/base/api/projects/p%201/import"
    assert dict(request.url.params) == {
        "format": "json",
        "pathTemplate": "l/{language}/{fileName}.json",
        "mode": "only-new",
        "removedKeys": "trash",
        "dryRun": "true",
    }
    assert request.headers["Authorization"] == "Bearer loko_key"
    assert request.headers["Content-Type"] == "application/zip"
    assert request.content == b"PK.."


def test_export_revalidates_with_the_etag():
    seen = []

    def handler(request):
        seen.append(request)
        return httpx.Response(304, headers={"ETag": '"v1"'})

    with remote_answering(handler) as remote:
        answer = remote.export("po", ("de", "fr"), '"v1"')
    assert answer.not_modified
    assert seen[0].url.params.multi_items() == [
        ("format", "po"),
        ("zip", "true"),
        ("language", "de"),
        ("language", "fr"),
    ]
    assert seen[0].headers["If-None-Match"] == '"v1"'


def test_export_names_the_source_language():
    seen = []

    def handler(request):
        seen.append(request)
        return httpx.Response(200, content=b"PK")

    with remote_answering(handler) as remote:
        remote.export("xliff", None, None, source_language="en")
    assert seen[0].url.params.multi_items() == [
        ("format", "xliff"),
        ("zip", "true"),
        ("sourceLanguage", "en"),
    ]


def test_export_returns_the_body_and_its_etag():
    with remote_answering(
        lambda request: httpx.Response(200, content=b"PK", headers={"ETag": '"v2"'})
    ) as remote:
        answer = remote.export("json", None, None)
    assert (answer.etag, answer.body) == ('"v2"', b"PK")


def test_requests_have_timeouts():
    with remote_answering(lambda request: httpx.Response(204)) as remote:
        timeout = remote.client.timeout
    assert (timeout.connect, timeout.read) == (CONNECT_TIMEOUT, READ_TIMEOUT)


def test_server_error_text_is_reported():
    answer = httpx.Response(400, json={"error": "file: 'x.json' is not a valid json file: line 1"})
    with remote_answering(lambda request: answer) as remote, pytest.raises(ServerError) as raised:
        remote.export("json", None, None)
    assert raised.value.message == "file: 'x.json' is not a valid json file: line 1 (HTTP 400)"
    assert raised.value.exit_code == 1


def test_rejected_key_points_at_the_variable():
    answer = httpx.Response(401, json={"error": "Invalid or revoked API key."})
    with remote_answering(lambda request: answer) as remote, pytest.raises(ServerError, match="LOKO_API_KEY"):
        remote.import_archive(
            b"PK", format="json", path_template="t", mode="upsert", removed_keys="keep", dry_run=False
        )


def test_a_redirect_is_not_followed():
    answer = httpx.Response(301, headers={"Location": "https://loko.test/"})
    with remote_answering(lambda request: answer) as remote, pytest.raises(ServerError, match="redirects"):
        remote.export("json", None, None)


def test_an_answer_that_is_not_an_import_result_fails():
    answer = httpx.Response(200, text="<html>maintenance</html>")
    with (
        remote_answering(lambda request: answer) as remote,
        pytest.raises(ServerError, match="not an import result"),
    ):
        remote.import_archive(
            b"PK", format="json", path_template="t", mode="upsert", removed_keys="keep", dry_run=True
        )


def test_network_failure_names_the_server():
    def handler(request):
        raise httpx.ConnectError("connection refused")

    with (
        remote_answering(handler) as remote,
        pytest.raises(ServerError, match=r"cannot reach https://loko\.test/base"),
    ):
        remote.export("json", None, None)


def test_large_upload_with_progress_sends_the_whole_body():
    body = bytes(range(256)) * 8192  # 2 MiB
    seen = []

    def handler(request):
        seen.append((request.headers["Content-Length"], request.read()))
        return httpx.Response(200, json=import_result())

    remote = Remote("https://loko.test", "p", "k", show_progress=True, transport=httpx.MockTransport(handler))
    with remote:
        remote.import_archive(
            body, format="json", path_template="t", mode="upsert", removed_keys="keep", dry_run=True
        )
    assert seen == [(str(len(body)), body)]


def test_large_download_with_progress_keeps_every_byte():
    body = bytes(range(256)) * 8192

    def chunks():
        for start in range(0, len(body), 100_000):
            yield body[start : start + 100_000]

    def handler(request):
        return httpx.Response(200, content=chunks(), headers={"ETag": '"v"'})

    remote = Remote("https://loko.test", "p", "k", show_progress=True, transport=httpx.MockTransport(handler))
    with remote:
        assert remote.export("json", None, None).body == body
