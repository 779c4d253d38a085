"""Tasks and notifications in a real browser, on a server that e-mails through a local SMTP
server: an admin makes a review task for German from the editor's filter and assigns it to
an editor (who may not review); the editor chose a daily digest, sees the task in the bell
and in My tasks, reviews its keys in the editor filtered to it, and the task shows done; the
daily digest arrives with the right counts."""

import email
import email.policy
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from playwright.sync_api import expect

from tests.browser.conftest import _free_port, check_accessibility, running_loko
from tests.browser.test_editor import add_keys, call, member, new_project, open_editor


class Inbox:
    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
        return "250 OK"


@pytest.fixture(scope="module")
def smtp():
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=_free_port())
    controller.start()
    yield controller.port, inbox
    controller.stop()


@pytest.fixture(scope="module")
def mail_settings(smtp):
    port, _inbox = smtp
    return {
        "LOKO_SMTP_HOST": "127.0.0.1",
        "LOKO_SMTP_PORT": str(port),
        "LOKO_SMTP_TLS": "none",
        "LOKO_MAIL_FROM": "loko@example.test",
    }


@pytest.fixture(scope="module")
def server_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("browser-tasks")


@pytest.fixture(scope="module")
def server_url(server_folder, mail_settings):
    """This module's own ``loko serve``, which e-mails through the local SMTP server."""
    with running_loko(server_folder, _free_port(), **mail_settings) as url:
        yield url


def send_digests(server_folder: Path, mail_settings: dict, url: str) -> str:
    loko = shutil.which("loko", path=str(Path(sys.executable).parent)) or "loko"
    env = {
        **os.environ,
        "LOKO_DATABASE_URL": f"sqlite:///{server_folder / 'loko.db'}",
        "LOKO_SECRET_KEY": "browser-test-secret",
        "LOKO_PUBLIC_URL": url,
        **mail_settings,
    }
    done = subprocess.run(
        [loko, "send-digests", "daily"], env=env, capture_output=True, text=True, timeout=60, check=True
    )
    return done.stdout


def bell_count(page):
    return page.locator("#bell-count")


def test_a_review_task_is_made_from_a_filter_reviewed_by_its_assignee_and_digested(
    new_page, smtp, server_folder, mail_settings, server_url
):
    _port, inbox = smtp
    owner, editor = new_page(), new_page()
    project_id = new_project(owner, "Owner")
    add_keys(owner, project_id, "en", {"save": "Save", "save.all": "Save all", "cancel": "Cancel"})
    add_keys(
        owner, project_id, "de", {"save": "Speichern", "save.all": "Alle speichern", "cancel": "Abbrechen"}
    )
    tessa = member(owner, project_id, editor, "Tessa", "editor")

    # The editor wants a daily digest of the tasks assigned to her.
    editor.goto(f"/projects/{project_id}/notifications")
    editor.get_by_label("A task assigned to me").select_option(label="Daily digest")
    editor.get_by_role("button", name="Save").click()
    expect(editor.get_by_text("Notification choices saved.")).to_be_visible()

    # The admin filters the editor and makes a review task of what it shows.
    open_editor(owner, project_id, "?q=save")
    owner.get_by_role("link", name="New task from these filters").click()
    form = owner.locator("form", has=owner.get_by_role("button", name="Make the task"))
    expect(form.get_by_label("Search")).to_have_value("save")
    form.get_by_label("Title").fill("Review the save buttons")
    form.get_by_label("Kind").select_option("review")
    form.get_by_label("Language", exact=True).select_option("de")
    form.get_by_label("Assignees").select_option(tessa)
    check_accessibility(owner)
    form.get_by_role("button", name="Make the task").click()
    expect(owner.get_by_text("Task made with 2 keys.")).to_be_visible()
    task_url = owner.url.split("?")[0]
    expect(owner.locator("#task-state")).to_have_text("open")

    # The assignee sees it in the bell (once the fan-out job has run) and in My tasks, beside
    # the message of the owner's new keys: it waited ten seconds for more of them
    # (LOKO_NEW_KEYS_WAIT_SECONDS), and she had joined by then.
    for _ in range(150):
        kinds = [note["kind"] for note in call(editor, "GET", "/api/notifications")["notifications"]]
        if "task.assigned" in kinds and "keys.new" in kinds:
            break
        editor.wait_for_timeout(200)
    assert sorted(kinds) == ["keys.new", "task.assigned"]
    editor.goto("/tasks")
    expect(bell_count(editor)).to_have_text(str(len(kinds)))
    expect(editor.get_by_role("link", name=f"Notifications: {len(kinds)} unread")).to_be_visible()
    check_accessibility(editor)
    editor.get_by_role("link", name="Review the save buttons").click()
    expect(editor.get_by_role("heading", name="Editor")).to_be_visible()
    expect(editor.locator('tr[data-key="cancel"]')).to_have_count(0)
    editor.get_by_text("Mark all shown reviewed in German (2)").click()
    confirm = editor.get_by_role("group", name="Mark all shown reviewed in German")
    confirm.get_by_role("button", name="Mark reviewed").click()
    expect(editor.locator('tr[data-key="save"] td.v[data-l="de"] .state')).to_have_text("✓ Reviewed")

    owner.goto(task_url)
    expect(owner.locator("#task-state")).to_have_text("done")
    expect(owner.locator("#task-progress")).to_contain_text("2 are reviewed")
    # Her right to review was the task's: outside it she still may not.
    refused = editor.request.post(
        f"/api/projects/{project_id}/translations/review",
        headers={"X-CSRF-Token": editor.locator('meta[name="csrf-token"]').get_attribute("content")},
        data={"fileName": "common", "keys": ["cancel"], "languages": ["de"], "state": "reviewed"},
    )
    assert refused.status == 403

    # The daily digest arrives with the right counts: sent now by the command, or already by
    # the workers' own daily run if it fell after the assignment (the first runs at start).
    answer = send_digests(server_folder, mail_settings, server_url)
    assert re.match(r"sent [01] daily digest", answer), answer
    digests = [m for m in inbox.messages if "Tessa" in m["To"] and "Daily digest" in m["Subject"]]
    assert len(digests) == 1, [m["Subject"] for m in inbox.messages]
    digest = digests[0]
    assert "1 notification" in digest["Subject"]
    body = digest.get_body(("plain",)).get_content()
    assert "Storefront: A task assigned to me: 1" in body
    assert call(editor, "GET", "/api/notifications/unread") == {"unread": len(kinds)}
