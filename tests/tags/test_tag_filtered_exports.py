"""A tag-filtered export is the full export restricted to the keys the filter keeps, in every
format of the registry and in its ZIP, for one tag, all of several and none of several."""

import io
import zipfile

import pytest

from loko.formats.registry import FORMAT_NAMES, format_module


def members(response) -> dict[str, bytes]:
    assert response.status_code == 200, response.data[:300]
    with zipfile.ZipFile(io.BytesIO(response.data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def entries(name: str, member: str, data: bytes) -> dict:
    """``{key: value}`` of a member, or ``{language: {key: value}}`` for a multilingual format."""
    module = format_module(name)
    if getattr(module, "MULTILINGUAL", False):
        return {
            language: {entry.key: entry.value for entry in found}
            for language, found in module.read_all(data).items()
        }
    language = member.split("/")[0]
    return {entry.key: entry.value for entry in module.read(data, language)}


def restricted(found: dict, kept: set[str], multilingual: bool) -> dict:
    if multilingual:
        return {language: restricted(values, kept, False) for language, values in found.items()}
    return {key: value for key, value in found.items() if key in kept}


@pytest.fixture
def tagged(project, tag):
    """title and cart carry web, cart and menu checkout, footer nothing."""
    tag(add=["web"], ids=[project.ids["common", "title"], project.ids["common", "cart"]])
    tag(add=["checkout"], ids=[project.ids["common", "cart"], project.ids["web", "menu"]])
    return project


FILTERS = [
    ("tag=web", {"title", "cart"}),
    ("tags=web,checkout", {"cart"}),
    ("excludeTags=web", {"greeting", "footer", "menu"}),
    ("tags=checkout&excludeTags=web", {"menu"}),
]


@pytest.mark.parametrize("name", FORMAT_NAMES)
@pytest.mark.parametrize(("query", "kept"), FILTERS)
def test_a_tag_filtered_zip_is_the_full_one_restricted_to_the_kept_keys(as_caller, tagged, name, query, kept):
    owner = as_caller("org_owner")
    base = f"/api/projects/{tagged.project_id}/translations?format={name}&zip=true"
    full = members(owner.get(base))
    filtered = members(owner.get(f"{base}&{query}"))
    assert set(filtered) == set(full)
    multilingual = getattr(format_module(name), "MULTILINGUAL", False)
    for member, data in full.items():
        expected = restricted(entries(name, member, data), kept, multilingual)
        assert entries(name, member, filtered[member]) == expected, member


@pytest.mark.parametrize("name", FORMAT_NAMES)
def test_a_tag_filtered_single_file_is_the_full_one_restricted(as_caller, tagged, name):
    owner = as_caller("org_owner")
    base = f"/api/projects/{tagged.project_id}/translations?format={name}&fileName=common&language=de"
    full, filtered = owner.get(base), owner.get(base + "&tag=web")
    assert (full.status_code, filtered.status_code) == (200, 200), filtered.data[:300]
    if name == "json":
        assert filtered.json == {"de": {"common": {"cart": "Korb", "title": "Acme"}}}
        return
    multilingual = getattr(format_module(name), "MULTILINGUAL", False)
    member = "de/common"
    assert entries(name, member, filtered.data) == restricted(
        entries(name, member, full.data), {"title", "cart"}, multilingual
    )


def test_the_etag_names_the_tag_filter_and_changes_with_the_tags(as_caller, tagged, tag):
    owner = as_caller("org_owner")
    base = f"/api/projects/{tagged.project_id}/translations"
    full, web = owner.get(base), owner.get(base + "?tag=web")
    assert full.headers["ETag"] != web.headers["ETag"]
    assert owner.get(base + "?tags=web").headers["ETag"] == web.headers["ETag"]
    tag(add=["web"], ids=[tagged.ids["web", "footer"]])
    again = owner.get(base + "?tag=web", headers={"If-None-Match": web.headers["ETag"]})
    assert again.status_code == 200
    assert set(again.json["de"]["web"]) == {"footer"}


@pytest.mark.parametrize("query", ["tag=a%20b", "tags=web,_x", "excludeTags=" + "x" * 51])
def test_a_bad_tag_in_an_export_is_a_400_naming_it(as_caller, tagged, query):
    response = as_caller("org_owner").get(f"/api/projects/{tagged.project_id}/translations?{query}")
    assert response.status_code == 400, response.json
    assert query.split("=")[0] in response.json["error"]
