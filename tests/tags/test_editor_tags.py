"""The editor's tags: each row's tags shown as chips, the filter by tags (all of some, none of
others) through the page's links, the tag suggestions, and the bulk tools only for those who
may tag."""

import html
import re

import pytest

from tests.pages.conftest import MEMBERS


def keys_of(response) -> list[str]:
    return [
        html.unescape(key) for key in re.findall(r'<tr data-id="[^"]+" data-key="([^"]*)"', response.text)
    ]


@pytest.fixture
def tagged(project, tag):
    tag(add=["web"], ids=[project.ids["common", "title"], project.ids["common", "cart"]])
    tag(add=["checkout"], ids=[project.ids["common", "cart"], project.ids["web", "menu"]])
    return project


def editor(page_as, project, caller="org_owner", query=""):
    response = page_as(caller).get(f"/projects/{project.project_id}/editor{query}")
    assert response.status_code == 200, response.text[:500]
    return response


@pytest.mark.parametrize("caller", MEMBERS)
def test_every_member_sees_each_keys_tags(page_as, tagged, caller):
    response = editor(page_as, tagged, caller)
    row = re.search(r'<tr data-id="[^"]+" data-key="cart".*?</tr>', response.text, re.S).group()
    assert (
        '<span class="tags" data-tags><span class="tag">checkout</span><span class="tag">web</span></span>'
        in row
    )
    assert '<option value="checkout"></option><option value="web"></option>' in response.text


def test_the_filter_keeps_keys_with_every_tag_and_none_of_the_excluded(page_as, tagged):
    assert keys_of(editor(page_as, tagged, query="?tags=web")) == ["cart", "title"]
    assert keys_of(editor(page_as, tagged, query="?tags=web,checkout")) == ["cart"]
    assert keys_of(editor(page_as, tagged, query="?tag=checkout&excludeTags=web")) == ["menu"]
    assert keys_of(editor(page_as, tagged, query="?excludeTags=web,checkout")) == ["greeting", "footer"]
    page = editor(page_as, tagged, query="?tags=nothing")
    assert keys_of(page) == []
    assert "No keys match these filters." in page.text


def test_the_filter_is_kept_in_the_form_and_the_rows_url(page_as, tagged):
    response = editor(page_as, tagged, query="?tags=web&excludeTags=checkout")
    assert 'name="tags" type="text" value="web"' in response.text
    assert 'name="excludeTags" type="text" value="checkout"' in response.text
    assert "tags=web&amp;excludeTags=checkout" in response.text


def test_a_bad_tag_in_the_filter_is_refused(page_as, tagged):
    response = page_as("org_owner").get(f"/projects/{tagged.project_id}/editor?tags=a%20b")
    assert response.status_code == 400


@pytest.mark.parametrize(("caller", "tools"), [("viewer", False), ("editor", True), ("org_owner", True)])
def test_the_bulk_tag_tools_show_to_those_who_may_tag(page_as, tagged, caller, tools):
    response = editor(page_as, tagged, caller)
    assert ("data-tag-add" in response.text) is tools
