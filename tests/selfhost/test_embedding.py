"""Loko mounted at /loko in a host Flask application (werkzeug's DispatcherMiddleware): its
pages link, redirect and set cookies under the prefix, and its API answers there
(decisions section 1)."""

import re

import pytest
from flask import Flask, request
from werkzeug.middleware.dispatcher import DispatcherMiddleware

from loko.auth import service
from tests.factories import PASSWORD, cheap_password_hasher

LINK = re.compile(r'(?:href|src|action|data-[a-z-]+)="(/[^"]*)"')


@pytest.fixture(autouse=True)
def fast_password_hashing(monkeypatch):
    monkeypatch.setattr(service, "_hasher", cheap_password_hasher())


@pytest.fixture
def host(app):
    """The host application's test client; the host's own /cookies tells which cookies the
    browser sent it."""
    host = Flask("host")

    @host.get("/cookies")
    def cookies():
        return sorted(request.cookies)

    host.wsgi_app = DispatcherMiddleware(host.wsgi_app, {"/loko": app})
    return host.test_client()


def set_cookie(response, name) -> dict:
    (header,) = [h for h in response.headers.getlist("Set-Cookie") if h.startswith(f"{name}=")]
    name_value, *attributes = header.split("; ")
    parsed = {"value": name_value.split("=", 1)[1]}
    for attribute in attributes:
        key, _, value = attribute.partition("=")
        parsed[key.lower()] = value or True
    return parsed


def links(response) -> list[str]:
    return LINK.findall(response.get_data(as_text=True))


def sign_up(host, email="ada@example.test"):
    response = host.post("/loko/api/auth/signup", json={"email": email, "password": PASSWORD, "name": "Ada"})
    assert response.status_code == 201
    return response


def sign_in_on_the_page(host, email="ada@example.test", next_page=""):
    page = host.get("/loko/login").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    return host.post(
        "/loko/login", data={"csrf_token": token, "email": email, "password": PASSWORD, "next": next_page}
    )


def test_a_page_needing_a_session_redirects_to_sign_in_under_the_prefix(host):
    sign_up(host)
    host.delete_cookie("sb-access-token", path="/loko")
    response = host.get("/loko/account")
    assert response.status_code == 302
    assert response.location == "/loko/login?next=/account"


def test_the_sign_in_page_links_only_under_the_prefix(host):
    response = host.get("/loko/login")
    assert response.status_code == 200
    found = links(response)
    assert "/loko/login" in found and "/loko/static/loko.css" in found
    assert [link for link in found if not link.startswith("/loko/")] == []


def test_the_assets_a_page_links_are_served_under_the_prefix(host):
    for link in links(host.get("/loko/login")):
        if link.startswith("/loko/static/"):
            response = host.get(link)
            response.close()
            assert response.status_code == 200, link


def test_the_csrf_cookie_is_scoped_to_the_prefix(host):
    assert set_cookie(host.get("/loko/login"), "loko-csrf")["path"] == "/loko"


def test_signing_in_on_the_page_sets_the_session_cookie_under_the_prefix(host):
    sign_up(host)
    host.delete_cookie("sb-access-token", path="/loko")
    response = sign_in_on_the_page(host)
    assert response.status_code == 303
    assert response.location.startswith("/loko/")
    cookie = set_cookie(response, "sb-access-token")
    assert cookie["path"] == "/loko"
    assert cookie["httponly"] is True and cookie["samesite"] == "Lax"


def test_signing_in_returns_to_the_page_asked_for_under_the_prefix(host):
    sign_up(host)
    host.delete_cookie("sb-access-token", path="/loko")
    assert sign_in_on_the_page(host, next_page="/account").location == "/loko/account"


def test_the_api_sets_the_session_cookie_under_the_prefix(host):
    sign_up(host)
    response = host.post("/loko/api/auth/login", json={"email": "ada@example.test", "password": PASSWORD})
    assert response.status_code == 200
    assert set_cookie(response, "sb-access-token")["path"] == "/loko"


def test_the_host_never_receives_the_session_cookie(host):
    sign_up(host)
    assert host.get("/loko/api/auth/me").status_code == 200
    assert "sb-access-token" not in host.get("/cookies").json


def test_signed_in_pages_link_only_under_the_prefix(host):
    sign_up(host)
    organization = host.get("/loko/api/auth/me").json["organizations"][0]["id"]
    project = host.post("/loko/api/projects", json={"name": "Web app", "organization_id": organization})
    project_id = project.json["project"]["id"]
    for path in ("", "/editor", "/languages", "/files", "/trash", "/history", "/keys", "/settings"):
        response = host.get(f"/loko/projects/{project_id}{path}")
        assert response.status_code == 200, path
        assert [link for link in links(response) if not link.startswith("/loko/")] == [], path


def test_a_page_form_redirects_under_the_prefix(host):
    sign_up(host)
    page = host.get("/loko/account").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    response = host.post("/loko/account", data={"csrf_token": token, "name": "Beta"})
    assert response.status_code == 303
    assert response.location.startswith("/loko/orgs/")
    assert set_cookie(response, "loko-notice")["path"] == "/loko"


def test_signing_out_on_the_page_clears_the_cookie_under_the_prefix(host):
    sign_up(host)
    page = host.get("/loko/account").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    response = host.post("/loko/logout", data={"csrf_token": token})
    assert response.location == "/loko/login"
    cleared = set_cookie(response, "sb-access-token")
    assert cleared["path"] == "/loko" and cleared["value"] == ""
    assert host.get("/loko/api/auth/me").status_code == 401


def test_signing_out_through_the_api_clears_the_cookie_under_the_prefix(host):
    sign_up(host)
    response = host.post("/loko/api/auth/logout", json={})
    assert response.status_code == 200
    assert set_cookie(response, "sb-access-token")["path"] == "/loko"
    assert host.get("/loko/api/auth/me").status_code == 401


def test_an_api_key_reads_and_writes_under_the_prefix(host, world):
    bearer = {"Authorization": f"Bearer {world.credentials['write_key']['bearer']}"}
    url = f"/loko/api/projects/{world.project_id}/translations"
    update = {"key": "greeting", "fileName": "common", "updates": {"en": {"value": "Hello"}}}
    assert host.patch(url, json=update, headers=bearer).status_code == 200
    export = host.get(url, headers=bearer)
    assert export.status_code == 200
    assert export.json["en"]["common"] == {"greeting": "Hello"}
    assert host.get(url, headers={**bearer, "If-None-Match": export.headers["ETag"]}).status_code == 304


def test_an_unknown_page_under_the_prefix_is_loko_s_404(host):
    response = host.get("/loko/no-such-page")
    assert response.status_code == 404
    assert "/loko/static/loko.css" in links(response)


def test_without_a_prefix_the_session_cookie_path_is_the_root(client):
    response = client.post("/api/auth/signup", json={"email": "ada@example.test", "password": PASSWORD})
    assert set_cookie(response, "sb-access-token")["path"] == "/"


def test_the_api_document_names_the_prefix_as_its_server(host):
    document = host.get("/loko/api/openapi.json").json
    assert document["servers"] == [{"url": "/loko"}]
    assert "/api/projects" in document["paths"]
