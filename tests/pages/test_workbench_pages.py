"""The overview's export of reviewed values only, and where an undo lands: back on the page
it was started from, when that is a path of this site."""

import html
import re

import pytest

from tests.translation_factories import ProjectApi


@pytest.fixture
def api(as_caller, world) -> ProjectApi:
    return ProjectApi(as_caller("write_key"), world.project_id)


@pytest.fixture
def deletion(page_as, world, api) -> str:
    """A bulk deletion of two keys, as the trash offers to undo it; returns its id."""
    api.upsert("en", {"a": "A", "b": "B"})
    api.bulk_delete(["a", "b"])
    page = page_as("editor").get(f"/projects/{world.project_id}/trash").get_data(as_text=True)
    return re.search(r'name="operation" value="([^"]+)"', page).group(1)


def test_an_export_shown_again_keeps_only_reviewed_values_ticked(page_as, world, api):
    api.create("hello", {"en": "Hello"})
    response = page_as("viewer").get(f"/projects/{world.project_id}/export?format=po&state=reviewed")
    assert response.status_code == 400
    assert 'name="state" value="reviewed" checked' in response.get_data(as_text=True)


def test_the_undo_page_carries_the_page_it_was_started_from_into_its_form(page_as, world, deletion):
    started = f"/projects/{world.project_id}/history?key=a"
    response = page_as("editor").get(
        f"/projects/{world.project_id}/undo", query_string={"operation": deletion, "next": started}
    )
    found = re.findall(r'name="next" value="([^"]*)"', response.get_data(as_text=True))
    assert [html.unescape(value) for value in found] == [started]


def test_an_undo_lands_back_on_the_page_it_was_started_from(page_as, world, deletion):
    started = f"/projects/{world.project_id}/history?key=a"
    response = page_as("editor").submit(
        f"/projects/{world.project_id}/undo", {"operation": deletion, "next": started}
    )
    assert response.status_code == 303
    assert response.location == started


@pytest.mark.parametrize(
    "elsewhere", ["//evil.example/x", "https://evil.example/x", "/\\evil.example", "history"]
)
def test_an_undo_started_elsewhere_than_this_site_lands_on_the_trash(page_as, world, deletion, elsewhere):
    response = page_as("editor").submit(
        f"/projects/{world.project_id}/undo", {"operation": deletion, "next": elsewhere}
    )
    assert response.status_code == 303
    assert response.location == f"/projects/{world.project_id}/trash"


def test_the_history_s_undo_links_carry_the_page_they_are_on(page_as, world, deletion):
    page = page_as("editor").get(f"/projects/{world.project_id}/history").get_data(as_text=True)
    links = [html.unescape(link) for link in re.findall(r'href="([^"]*/undo\?[^"]*)"', page)]
    assert links and all(link.endswith(f"next=/projects/{world.project_id}/history") for link in links)
