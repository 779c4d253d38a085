"""A host Flask application mounting Loko under /loko with DispatcherMiddleware
(decisions section 1)."""

import pytest
from flask import Flask
from werkzeug.middleware.dispatcher import DispatcherMiddleware


@pytest.fixture
def host(app):
    host = Flask(__name__)

    @host.get("/")
    def home():
        return "host home"

    host.wsgi_app = DispatcherMiddleware(host.wsgi_app, {"/loko": app})
    return host.test_client()


def test_mounted_health_answers_ok(host):
    response = host.get("/loko/api/health")
    assert response.status_code == 200
    assert response.json["status"] == "ok"


def test_host_route_still_answers(host):
    response = host.get("/")
    assert response.status_code == 200
    assert response.get_data(as_text=True) == "host home"


def test_unmounted_api_path_belongs_to_the_host(host):
    assert host.get("/api/health").status_code == 404


def test_mounted_unknown_api_route_is_a_json_404(host):
    response = host.get("/loko/api/no-such-thing")
    assert response.status_code == 404
    assert isinstance(response.json["error"], str)


def test_mounted_signup_and_cookie_write_work_under_the_prefix(host):
    signup = host.post("/loko/api/auth/signup", json={"email": "ada@example.test", "password": "long enough"})
    assert signup.status_code == 201
    response = host.post(
        "/loko/api/organizations", json={"name": "Beta"}, headers={"Origin": "http://localhost"}
    )
    assert response.status_code == 201


def test_mounted_docs_link_their_assets_under_the_prefix(host):
    page = host.get("/loko/api/docs").get_data(as_text=True)
    assert "/loko/api/docs/assets/swagger-ui-bundle.js" in page
    assert "/loko/api/openapi.json" in page
