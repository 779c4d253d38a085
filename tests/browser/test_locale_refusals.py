"""The API's refusals a page's script shows are in the page's language (the REST answer
itself stays English): the editor's new key that exists, and a save the checks refuse, in
German."""

from playwright.sync_api import expect

from tests.browser.test_editor import add_keys, new_project
from tests.browser.test_locales import choose_language


def test_the_editor_shows_the_apis_refusal_in_the_pages_language(page):
    project_id = new_project(page, languages=("en", "de"))
    add_keys(page, project_id, "en", {"greeting": "Hello"})
    choose_language(page, "de")
    page.goto(f"/projects/{project_id}/editor")
    page.get_by_label("Neuer Schlüssel").fill("greeting")
    page.get_by_role("button", name="Schlüssel hinzufügen").click()
    expect(page.get_by_role("status").filter(has_text="existiert bereits")).to_have_text(
        "Neuer Schlüssel: 'greeting' existiert bereits in der Datei 'common'."
    )
    # The same refusal over REST, from the same session, in English.
    token = page.locator('meta[name="csrf-token"]').get_attribute("content")
    answer = page.request.fetch(
        f"/api/projects/{project_id}/translations",
        method="POST",
        headers={"X-CSRF-Token": token, "Content-Type": "application/json"},
        data={"key": "greeting", "fileName": "common", "values": {}},
    )
    assert answer.status == 409
    assert answer.json() == {"error": "key: 'greeting' already exists in the file 'common'."}
    # Loko.api, which every page script calls, gives the refusal in German too.
    error = page.evaluate(
        "async (url) => (await Loko.api('POST', url, {code: 'de'})).data.error",
        f"/api/projects/{project_id}/languages",
    )
    assert error == "code: Das Projekt hat die Sprache 'de' bereits."


def test_a_checks_refusal_of_a_save_is_shown_in_the_pages_language(page):
    project_id = new_project(page, languages=("en", "de"))
    add_keys(page, project_id, "en", {"greeting": "Hello.", "welcome": "Hi %s, <b>you</b>."})
    choose_language(page, "de")
    page.goto(f"/projects/{project_id}/editor")
    checks = {"punctuation": "refuse", "whitespace": "refuse", "placeholders": "refuse", "tags": "refuse"}
    settings = page.evaluate(
        "async ([url, checks]) => (await Loko.api('PUT', url, {checks})).status",
        [f"/api/projects/{project_id}", checks],
    )
    assert settings == 200
    save = (
        "async ([url, key, value]) => (await Loko.api('PATCH', url, "
        "{key, fileName: 'common', updates: {de: {value}}})).data.error"
    )
    url = f"/api/projects/{project_id}/translations"
    assert page.evaluate(save, [url, "greeting", "Hallo  "]) == (
        "updates.de.value: whitespace: Ende des Werts: 2 Leerzeichen; Ende der Quelle: kein Leerraum. "
        "updates.de.value: punctuation: Ende des Werts: kein Satzzeichen; Ende der Quelle: ein Punkt."
    )
    assert page.evaluate(save, [url, "welcome", "Hallo {name}, du."]) == (
        "updates.de.value: placeholders: Fehlender Platzhalter %s; überzähliger Platzhalter {name}. "
        "updates.de.value: tags: Fehlende Tags </b>, <b>."
    )


def test_the_scripts_translate_every_checks_message_as_the_pages_do(page):
    """Each message the checks say (the samples of tests/i18n), in a save's refusal with and
    without its issues: the scripts' words (Loko.refusal) are the server's, in German."""
    from flask_babel import force_locale

    from loko import checks, create_app
    from loko.web.refusals import page_message
    from tests.i18n.test_issue_texts import SAMPLES

    found = [issue for target in SAMPLES for issue in checks.run(target)]
    refusals = []
    for issue in found:
        details = {
            "issues": [
                {
                    "key": "k",
                    "fileName": "common",
                    "language": "de",
                    "check": issue.check,
                    "message": issue.message,
                }
            ]
        }
        refusals.append([f"updates.de.value: {issue.check}: {issue.message}", details])
        refusals.append([f"common k (de): {issue.check}: {issue.message}", None])
    app = create_app({"LOKO_DATABASE_URL": "sqlite://", "LOKO_SECRET_KEY": "parity"})
    with app.test_request_context("/"), force_locale("de"):
        expected = [
            page_message(message, issues=(details or {}).get("issues")) for message, details in refusals
        ]
    untranslated = [text for text, (english, _) in zip(expected, refusals, strict=True) if text == english]
    assert untranslated == []

    new_project(page, languages=("en", "de"))
    choose_language(page, "de")
    page.goto("/account")
    shown = page.evaluate(
        "async (all) => Promise.all(all.map(([message, details]) => Loko.refusal(message, details)))",
        refusals,
    )
    assert shown == expected
