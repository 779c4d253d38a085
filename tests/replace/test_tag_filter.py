"""Find and replace narrowed by tags: only the values of keys with every tag of ``tags`` and
none of ``excludeTags`` are previewed; a bad tag is a 400 naming its field."""

import pytest


@pytest.fixture
def tagged(project, as_caller):
    owner = as_caller("org_owner")
    for tag, keys in (("web", ["greeting", "cart"]), ("ios", ["cart", "world"])):
        response = owner.post(
            f"/api/projects/{project.project_id}/tags/bulk",
            json={"add": [tag], "ids": [project.ids[key] for key in keys]},
        )
        assert response.status_code == 200, response.json
    return project


def keys_of(preview) -> set[str]:
    return {change["key"] for change in preview.json["changes"]}


def test_the_preview_takes_the_keys_with_every_tag(replace, tagged):
    assert keys_of(replace("org_owner", find="Welt", replace="World")) == {
        "greeting",
        "cart",
        "link",
        "world",
    }
    assert keys_of(replace("org_owner", find="Welt", replace="World", tags=["web"])) == {"greeting", "cart"}
    assert keys_of(replace("org_owner", find="Welt", replace="World", tags=["web", "ios"])) == {"cart"}


def test_the_preview_leaves_out_the_keys_with_an_excluded_tag(replace, tagged):
    preview = replace("org_owner", find="Welt", replace="World", excludeTags=["web"])
    assert keys_of(preview) == {"link", "world"}
    both = replace("org_owner", find="Welt", replace="World", tags=["ios"], excludeTags=["web"])
    assert keys_of(both) == {"world"}


@pytest.mark.parametrize(("field", "value"), [("tags", ["a b"]), ("excludeTags", ["_x"]), ("tags", [])])
def test_a_bad_tag_filter_is_a_400_naming_its_field(replace, tagged, field, value):
    response = replace("org_owner", find="Welt", replace="World", **{field: value})
    assert response.status_code == 400, response.json
    assert field in response.json["error"]
