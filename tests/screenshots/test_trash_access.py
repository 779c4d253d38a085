"""Who may list the screenshots' trash, restore a screenshot from it and delete one for good:
every kind of caller, as the policy says (those who see screenshots list the trash, those who
change them restore and delete; strangers get 404, another project's key 403, nobody 401)."""

import pytest

from tests.screenshots.test_access import DENIED, SEE, callers, shot  # noqa: F401 (fixtures)

CHANGE = ("owner", "editor", "write key")
CALLERS = ["owner", "editor", "viewer", "write key", "read key", *DENIED]


def expected(caller: str, allowed: int) -> int:
    if caller in DENIED:
        return DENIED[caller]
    return allowed if caller in CHANGE else 403


def trashed(api, item: dict) -> None:
    assert api.client.delete(api.url(f"/screenshots/{item['id']}")).status_code == 200


@pytest.mark.parametrize("caller", [*SEE, *DENIED])
def test_who_lists_the_trash(callers, api, shot, caller):  # noqa: F811
    trashed(api, shot)
    response = callers[caller].get(api.url("/screenshots"), query_string={"trashed": "true"})
    assert response.status_code == (SEE.get(caller) or DENIED[caller])
    if response.status_code == 200:
        assert [item["id"] for item in response.json["screenshots"]] == [shot["id"]]


@pytest.mark.parametrize("caller", CALLERS)
def test_who_restores_a_screenshot(callers, api, shot, caller):  # noqa: F811
    trashed(api, shot)
    response = callers[caller].post(api.url(f"/screenshots/{shot['id']}/restore"))
    assert response.status_code == expected(caller, 200)
    active = api.client.get(api.url("/screenshots")).json["total"]
    assert active == (1 if response.status_code == 200 else 0)


@pytest.mark.parametrize("caller", CALLERS)
def test_who_deletes_a_screenshot_for_good(callers, api, shot, caller):  # noqa: F811
    response = callers[caller].delete(
        api.url(f"/screenshots/{shot['id']}"), query_string={"permanent": "true"}
    )
    assert response.status_code == expected(caller, 200)
    left = api.client.get(api.url(f"/screenshots/{shot['id']}")).status_code
    assert left == (404 if response.status_code == 200 else 200)
