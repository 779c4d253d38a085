"""Pages and their assets travel gzip-compressed to a browser that accepts it, and as they
are to a client that does not ask; the JSON API is never compressed."""

import gzip

import pytest

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def project_page(page_as, world, headers=None):
    response = page_as("org_owner").get(f"/projects/{world.project_id}", headers=headers or {})
    assert response.status_code == 200
    return response


def test_a_page_is_sent_compressed_to_a_browser_that_accepts_gzip(page_as, world):
    plain = project_page(page_as, world).get_data()
    response = project_page(page_as, world, GZIP)
    assert response.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response.headers["Vary"]
    assert (
        gzip.decompress(response.get_data()).split(b'name="csrf-token"')[0]
        == plain.split(b'name="csrf-token"')[0]
    )
    assert int(response.headers["Content-Length"]) == len(response.get_data())


def test_a_page_is_sent_as_it_is_without_accept_encoding(page_as, world):
    response = project_page(page_as, world)
    assert "Content-Encoding" not in response.headers
    assert b"<html" in response.get_data()


def test_gzip_refused_with_quality_zero_is_not_sent(page_as, world):
    response = project_page(page_as, world, {"Accept-Encoding": "gzip;q=0, identity"})
    assert "Content-Encoding" not in response.headers


@pytest.mark.parametrize("asset", ["/static/editor.js", "/static/loko.css"])
def test_an_asset_is_compressed_and_revalidates_by_its_weak_etag(client, asset):
    plain = client.get(asset)
    compressed = client.get(asset, headers=GZIP)
    assert compressed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(compressed.get_data()) == plain.get_data()
    etag = compressed.headers["ETag"]
    assert etag.startswith('W/"')
    again = client.get(asset, headers={**GZIP, "If-None-Match": etag})
    assert again.status_code == 304
    assert client.get(asset, headers=GZIP).get_data() == compressed.get_data()  # kept


def test_the_api_is_never_compressed(page_as, world):
    response = page_as("org_owner").get(f"/api/projects/{world.project_id}/translations", headers=GZIP)
    assert response.status_code == 200
    assert "Content-Encoding" not in response.headers
