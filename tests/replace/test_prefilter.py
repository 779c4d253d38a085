"""The database's prefilter of a text find never hides a value the replacement changes: text
in any case (ASCII letters, other letters, the letters a non-ASCII character folds into),
whole words, and text in its case."""

import pytest


@pytest.fixture
def cased(project, as_caller):
    values = {
        "upper": "ACME Welt",
        "kelvin": "\u212aelvin Welt",
        "long_s": "Ma\u017f\u017fe Welt",
        "umlaut": "ÜBER Welt",
        "dotted": "\u0130stanbul Welt",
    }
    writer = as_caller("write_key")
    for key, value in values.items():
        response = writer.post(
            f"/api/projects/{project.project_id}/translations",
            json={"key": key, "fileName": "common", "values": {"de": value}},
        )
        assert response.status_code == 201, response.json
    return project


def keys_of(preview) -> set[str]:
    assert preview.status_code == 200, preview.json
    return {change["key"] for change in preview.json["changes"]}


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"find": "acme"}, {"upper"}),
        ({"find": "kelvin"}, {"kelvin"}),
        ({"find": "masse"}, {"long_s"}),
        ({"find": "über"}, {"umlaut"}),
        ({"find": "istanbul"}, {"dotted"}),
        ({"find": "acme", "wholeWord": True}, {"upper"}),
        ({"find": "ACME", "matchCase": True}, {"upper"}),
        ({"find": "acme", "matchCase": True}, set()),
    ],
)
def test_the_prefilter_keeps_every_value_the_replacement_changes(replace, cased, body, expected):
    assert keys_of(replace("org_owner", replace="X", languages=["de"], **body)) == expected
