"""What every page shares: security headers, CSRF tokens, error pages, static assets."""

import pytest

from tests.pages.conftest import PageClient


def test_pages_carry_a_strict_content_security_policy(page_as):
    policy = page_as("viewer").get("/account").headers["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in policy


def test_pages_cannot_be_framed_and_send_no_referrer_elsewhere(page_as):
    headers = page_as("viewer").get("/account").headers
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["X-Content-Type-Options"] == "nosniff"


def test_pages_are_never_cached(page_as):
    assert page_as("viewer").get("/account").headers["Cache-Control"] == "no-store"


def test_pages_hold_no_inline_script_or_style(page_as, world):
    for path in ("/account", f"/orgs/{world.organization_id}", f"/projects/{world.project_id}"):
        text = page_as("org_owner").get(path).get_data(as_text=True)
        assert "<script>" not in text
        assert "<style" not in text
        assert " style=" not in text


def test_every_form_carries_the_csrf_token(page_as, world):
    browser = page_as("org_owner")
    text = browser.get(f"/orgs/{world.organization_id}/members").get_data(as_text=True)
    assert text.count("<form") == text.count('name="csrf_token"')
    assert f'value="{browser.csrf_token()}"' in text


def test_a_form_post_without_the_token_is_refused_and_changes_nothing(page_as, world):
    browser = page_as("org_owner")
    response = browser.post(f"/orgs/{world.organization_id}", data={"name": "Forged"})
    assert response.status_code == 403
    assert response.mimetype == "text/html"
    assert "Forged" not in browser.get(f"/orgs/{world.organization_id}").get_data(as_text=True)


def test_a_token_of_another_session_is_refused(page_as, world):
    owner, viewer = page_as("org_owner"), page_as("viewer")
    response = owner.post(
        f"/orgs/{world.organization_id}", data={"name": "Forged", "csrf_token": viewer.csrf_token()}
    )
    assert response.status_code == 403


def test_a_cross_origin_form_post_is_refused_even_with_the_token(page_as, world):
    browser = page_as("org_owner")
    response = browser.submit(
        f"/orgs/{world.organization_id}", {"name": "Forged"}, headers={"Origin": "https://evil.example"}
    )
    assert response.status_code == 403


def test_the_sign_in_form_needs_a_token_too(app):
    response = PageClient(app, {}).post("/login", data={"email": "a@example.test", "password": "x"})
    assert response.status_code == 403


def test_an_api_write_from_a_page_with_a_wrong_csrf_header_is_refused(page_as, world):
    response = page_as("org_owner").post(
        "/api/projects",
        json={"name": "Forged", "organization_id": world.organization_id},
        headers={"X-CSRF-Token": "0" * 64},
    )
    assert response.status_code == 403
    assert response.json["error"]


def test_an_api_write_from_a_page_with_its_csrf_header_goes_through(page_as, world):
    browser = page_as("org_owner")
    response = browser.post(
        "/api/projects",
        json={"name": "From page", "organization_id": world.organization_id},
        headers={"X-CSRF-Token": browser.csrf_token()},
    )
    assert response.status_code == 201


def test_unknown_page_is_an_html_404(page_as):
    response = page_as("viewer").get("/no/such/page")
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    assert "Not found" in response.get_data(as_text=True)


def test_unknown_api_route_stays_json(page_as):
    response = page_as("viewer").get("/api/no/such/route")
    assert response.status_code == 404
    assert response.mimetype == "application/json"


def test_a_project_outside_the_callers_organization_is_an_html_404(page_as, world):
    response = page_as("outsider").get(f"/projects/{world.project_id}")
    assert response.status_code == 404
    assert response.mimetype == "text/html"


@pytest.mark.parametrize("caller", ["anonymous", "write_key", "revoked_key"])
def test_a_page_without_a_session_redirects_to_sign_in(page_as, world, caller):
    response = page_as(caller).get(f"/projects/{world.project_id}")
    assert response.status_code == 302
    assert response.location == f"/login?next=/projects/{world.project_id}"


def test_an_expired_session_is_sent_to_sign_in(app, world):
    from tests.factories import expire_session

    with app.app_context():
        expire_session(world.credentials["viewer"]["cookie"])
    response = PageClient(app, world.credentials["viewer"]).get("/account")
    assert response.location.startswith("/login")


def test_static_assets_are_served_from_the_package(client):
    for name, mimetype in (
        ("loko.css", "text/css"),
        ("loko.js", "text/javascript"),
        ("favicon.svg", "image/svg+xml"),
    ):
        with client.get(f"/static/{name}") as response:
            assert response.status_code == 200
            assert response.mimetype == mimetype


def test_a_page_links_no_asset_of_another_origin(page_as):
    text = page_as("viewer").get("/account").get_data(as_text=True)
    assert "http://" not in text
    assert "https://" not in text


def project_pages(world):
    base = f"/projects/{world.project_id}"
    return [
        "/account",
        f"/orgs/{world.organization_id}",
        f"/orgs/{world.organization_id}/members",
        base,
        f"{base}/editor",
        f"{base}/languages",
        f"{base}/files",
        f"{base}/import",
        f"{base}/trash",
        f"{base}/history",
        f"{base}/keys",
        f"{base}/settings",
    ]


def test_every_page_holds_no_inline_script_or_style_and_every_form_its_token(page_as, world):
    browser = page_as("org_owner")
    for path in project_pages(world):
        response = browser.get(path)
        text = response.get_data(as_text=True)
        assert response.status_code == 200, path
        assert "<script>" not in text and "<style" not in text and " style=" not in text, path
        assert text.count('<form method="post"') == text.count('name="csrf_token"'), path


@pytest.mark.parametrize(
    "path",
    [
        "/projects/{project}/languages?delete=%00",
        "/projects/{project}/files?delete=%00",
        "/projects/{project}/files?delete=common&language=%00",
        "/projects/{project}/history?key=%00",
        "/projects/{project}/editor/keys/%00",
    ],
)
def test_a_nul_character_in_a_page_address_is_a_400_naming_the_field(page_as, world, path):
    response = page_as("org_owner").get(path.format(project=world.project_id))
    assert response.status_code == 400
    assert "must not contain the NUL character" in response.get_data(as_text=True)


def test_a_nul_character_in_a_posted_form_is_a_400_and_changes_nothing(page_as, world):
    browser = page_as("org_owner")
    response = browser.submit(
        f"/orgs/{world.organization_id}/members", {"action": "remove", "user_id": "\x00"}
    )
    assert response.status_code == 400
    assert "user_id: must not contain" in response.get_data(as_text=True)
