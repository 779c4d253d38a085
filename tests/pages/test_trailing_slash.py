"""Pages answer with and without a trailing slash too, directly (no redirect)."""


def test_page_answers_the_same_with_a_trailing_slash(page_as, world):
    browser = page_as("org_owner")
    bare = browser.get(f"/projects/{world.project_id}/settings")
    slashed = browser.get(f"/projects/{world.project_id}/settings/")
    assert (bare.status_code, slashed.status_code) == (200, 200)
    assert slashed.get_data(as_text=True) == bare.get_data(as_text=True)


def test_form_posted_to_a_path_with_a_trailing_slash_is_honoured(page_as, world):
    browser = page_as("org_owner")
    response = browser.submit(f"/projects/{world.project_id}/languages/", {"code": "it"})
    assert response.status_code == 303
    assert "it" in [language["code"] for language in _languages(browser, world)]


def _languages(browser, world):
    return browser.get(f"/api/projects/{world.project_id}/languages").json["languages"]
