"""GitHub, GitLab and Gitea providers against their stand-ins on 127.0.0.1, whose every
request and response is checked against the host's API description (``standins.py``)."""

import hashlib
import hmac
import shutil
import socket

import httpx
import pytest

from loko import outbound
from loko.repohost.providers import PROVIDERS, provider_for
from loko.repohost.providers.base import ProviderError, PullRequest
from tests.repohost.standins import STAND_INS, ApiDescription, Pull

TOKEN = "tok-5c1e9a7f-do-not-leak"
HEAD = "loko/translations"
REPOSITORIES = {"github": "owner/name", "gitlab": "group/sub/project", "gitea": "owner/name"}
CONFLICT_MESSAGES = {
    "github": (422, "A pull request already exists"),
    "gitlab": (409, "Another open merge request already exists"),
    "gitea": (409, "pull request already exists"),
}


@pytest.fixture(params=sorted(STAND_INS))
def host(request):
    stand_in = STAND_INS[request.param](token=TOKEN).start()
    stand_in.add_repository(REPOSITORIES[request.param], branches=("main", HEAD))
    yield stand_in
    stand_in.stop()
    assert stand_in.errors == [], "requests or responses that the API description does not allow"


@pytest.fixture
def http():
    with outbound.http_client(allow_private=True) as client:
        yield client


@pytest.fixture
def provider(host, http):
    return provider_for(host.name, REPOSITORIES[host.name], TOKEN, host.api_url, http)


def provider_with(host, http, repository=None, token=TOKEN, api_url=None):
    return provider_for(
        host.name, repository or REPOSITORIES[host.name], token, api_url or host.api_url, http
    )


def refusal(call) -> ProviderError:
    with pytest.raises(ProviderError) as caught:
        call()
    return caught.value


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# git
@pytest.mark.parametrize(
    ("name", "repository", "api_url", "git_url"),
    [
        ("github", "owner/name", None, "https://github.com/owner/name.git"),
        ("github", "owner/name", "https://ghe.example.org/api/v3", "https://ghe.example.org/owner/name.git"),
        ("gitlab", "group/sub/project", None, "https://gitlab.com/group/sub/project.git"),
        (
            "gitlab",
            "group/project",
            "https://example.org/gitlab/api/v4/",
            "https://example.org/gitlab/group/project.git",
        ),
        ("gitea", "owner/name", None, "https://gitea.com/owner/name.git"),
        ("gitea", "owner/name", "http://127.0.0.1:3000/api/v1", "http://127.0.0.1:3000/owner/name.git"),
    ],
)
def test_git_url_follows_the_api_url(name, repository, api_url, git_url):
    with httpx.Client() as http:
        assert provider_for(name, repository, TOKEN, api_url, http).git_url() == git_url


@pytest.mark.parametrize(
    ("name", "username"), [("github", "x-access-token"), ("gitlab", "oauth2"), ("gitea", "loko")]
)
def test_git_credentials_carry_the_token_as_password(name, username):
    with httpx.Client() as http:
        assert provider_for(name, "owner/name", TOKEN, None, http).git_credentials() == (username, TOKEN)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs Debian's git (apt-get install git)")
def test_git_is_served_at_the_git_url_with_the_credentials(host, provider, http):
    host.git.create_repository(REPOSITORIES[host.name], {"locales/en.json": b"{}"})
    response = http.get(
        f"{provider.git_url()}/info/refs",
        params={"service": "git-upload-pack"},
        auth=provider.git_credentials(),
    )
    assert response.status_code == 200
    assert b"refs/heads/main" in response.content


def test_provider_for_refuses_an_unknown_name():
    with httpx.Client() as http, pytest.raises(KeyError):
        provider_for("bitbucket", "owner/name", TOKEN, None, http)


# the connection check
def test_check_passes_for_a_writable_repository_and_branch(provider):
    provider.check("main")


def test_requests_carry_the_documented_authentication(host, provider):
    provider.check("main")
    headers = {name.lower(): value for name, value in host.calls[0].headers.items()}
    expected = {
        "github": {
            "authorization": f"Bearer {TOKEN}",
            "accept": "application/vnd.github+json",
            "x-github-api-version": "2022-11-28",
        },
        "gitlab": {"private-token": TOKEN},
        "gitea": {"authorization": f"token {TOKEN}"},
    }[host.name]
    assert {name: headers.get(name) for name in expected} == expected


def test_check_reports_a_missing_repository(host, http):
    error = refusal(lambda: provider_with(host, http, repository="owner/missing").check("main"))
    assert (error.problem, error.status) == ("not_found", 404)
    assert "owner/missing" in error.message


def test_check_reports_a_token_that_may_not_push(host, http):
    error = refusal(lambda: provider_with(host, http, token=host.read_only_token).check("main"))
    assert error.problem == "no_write_access"


def test_check_reports_a_repository_the_token_may_not_push_to(host, http):
    host.add_repository("owner/read-only", writable=False)
    error = refusal(lambda: provider_with(host, http, repository="owner/read-only").check("main"))
    assert error.problem == "no_write_access"


def test_check_reports_a_missing_branch(provider):
    error = refusal(lambda: provider.check("release"))
    assert (error.problem, error.status) == ("branch_missing", 404)
    assert "release" in error.message


def test_check_reports_a_rejected_token(host, http):
    error = refusal(lambda: provider_with(host, http, token="expired-token").check("main"))
    assert (error.problem, error.status) == ("unauthorized", 401)
    assert host.bad_credentials in error.message


def test_check_reports_an_unreachable_host(host, http):
    api_url = f"http://127.0.0.1:{closed_port()}{host.api_root}"
    error = refusal(lambda: provider_with(host, http, api_url=api_url).check("main"))
    assert (error.problem, error.status) == ("unavailable", None)


@pytest.mark.parametrize("host", ["gitlab"], indirect=True)
def test_check_accepts_a_developer_through_a_parent_group(host, provider):
    host.set_role(REPOSITORIES["gitlab"], host.DEVELOPER, inherited=True)
    provider.check("main")


@pytest.mark.parametrize("host", ["gitlab"], indirect=True)
def test_check_reports_a_reporter_through_a_parent_group_as_without_write_access(host, provider):
    host.set_role(REPOSITORIES["gitlab"], host.REPORTER, inherited=True)
    error = refusal(lambda: provider.check("main"))
    assert error.problem == "no_write_access"
    assert "Developer role needed" in error.message


@pytest.mark.parametrize("host", ["gitlab"], indirect=True)
def test_check_reports_a_token_whose_user_is_not_a_member_as_without_write_access(host, provider):
    host.set_role(REPOSITORIES["gitlab"], 0)
    assert refusal(lambda: provider.check("main")).problem == "no_write_access"


def test_a_loopback_host_is_refused_unless_private_addresses_are_allowed(host):
    with outbound.http_client(allow_private=False) as checked:
        error = refusal(lambda: provider_with(host, checked).check("main"))
    assert error.problem == "refused"
    assert TOKEN not in error.message
    assert host.calls == []


# pull requests
def test_pull_request_is_opened_found_and_updated(host, provider):
    repository = host.repositories[REPOSITORIES[host.name]]
    assert provider.find_pull_request(HEAD, "main") is None

    opened = provider.open_pull_request(HEAD, "main", "Translations", "12 strings")
    assert opened == PullRequest(url=opened.url, number=1, branch=HEAD)
    assert opened.url.startswith(host.url)
    assert provider.find_pull_request(HEAD, "main") == opened

    updated = provider.update_pull_request(opened.number, "Translations (2)", "15 strings")
    assert updated == opened
    pull = repository.pulls[0]
    assert (pull.head, pull.base, pull.title, pull.body, pull.updates) == (
        HEAD,
        "main",
        "Translations (2)",
        "15 strings",
        1,
    )


def test_close_pull_request_closes_it(host, provider):
    opened = provider.open_pull_request(HEAD, "main", "Translations", "12 strings")
    provider.close_pull_request(opened.number)
    assert host.repositories[REPOSITORIES[host.name]].pulls[0].state == "closed"
    assert provider.find_pull_request(HEAD, "main") is None


def test_closing_a_missing_pull_request_is_not_found(provider):
    error = refusal(lambda: provider.close_pull_request(41))
    assert (error.status, error.problem) == (404, "not_found")


def test_find_ignores_other_branches_and_closed_pull_requests(host, provider):
    repository = host.repositories[REPOSITORIES[host.name]]
    repository.pulls += [
        Pull(1, "feature", "main", "Other", ""),
        Pull(2, HEAD, "develop", "Other base", ""),
        Pull(3, HEAD, "main", "Closed", "", state="closed"),
    ]
    assert provider.find_pull_request(HEAD, "main") is None


def test_find_reads_every_page(host, provider):
    host.page_size = 2
    repository = host.repositories[REPOSITORIES[host.name]]
    repository.pulls += [Pull(number, f"feature-{number}", "main", "Other", "") for number in range(1, 6)]
    repository.pulls.append(Pull(6, HEAD, "main", "Translations", ""))
    assert provider.find_pull_request(HEAD, "main").number == 6


@pytest.mark.parametrize("host", ["gitea"], indirect=True)
def test_find_does_not_follow_a_next_page_outside_the_api(host, provider):
    host.page_size = 1
    host.foreign_next_page = "http://127.0.0.2:9/collect"
    repository = host.repositories[REPOSITORIES[host.name]]
    repository.pulls += [Pull(1, "feature", "main", "Other", ""), Pull(2, HEAD, "main", "Translations", "")]
    error = refusal(lambda: provider.find_pull_request(HEAD, "main"))
    assert "outside its API" in error.message
    assert len(host.calls) == 1


def test_opening_a_second_pull_request_carries_the_hosts_refusal(host, provider):
    provider.open_pull_request(HEAD, "main", "Translations", "")
    error = refusal(lambda: provider.open_pull_request(HEAD, "main", "Translations", ""))
    status, message = CONFLICT_MESSAGES[host.name]
    assert (error.status, error.problem) == (status, "refused")
    assert message in error.message
    assert error.message.startswith(PROVIDERS[host.name].label)


def test_updating_a_missing_pull_request_is_not_found(provider):
    error = refusal(lambda: provider.update_pull_request(41, "Translations", ""))
    assert (error.status, error.problem) == (404, "not_found")


def test_a_read_only_token_cannot_open_a_pull_request(host, http):
    error = refusal(
        lambda: provider_with(host, http, token=host.read_only_token).open_pull_request(HEAD, "main", "T", "")
    )
    assert (error.status, error.problem) == (403, "no_write_access")


def test_a_server_error_carries_the_status_and_the_hosts_message(host, provider):
    host.fail_next(500, "Something went wrong on our side")
    error = refusal(lambda: provider.find_pull_request(HEAD, "main"))
    assert (error.status, error.problem) == (500, "unavailable")
    assert error.message == f"{PROVIDERS[host.name].label} answered 500: Something went wrong on our side"


def test_no_error_message_names_the_token(host, provider, http):
    host.fail_next(500, f"token {TOKEN} is not allowed here")
    messages = [refusal(lambda: provider.check("main")).message]
    messages.append(refusal(lambda: provider.check("release")).message)
    api_url = f"http://127.0.0.1:{closed_port()}{host.api_root}"
    messages.append(refusal(lambda: provider_with(host, http, api_url=api_url).check("main")).message)
    assert not [message for message in messages if TOKEN in message]
    assert "token [token] is not allowed here" in messages[0]


# webhooks
def github_headers(secret, body):
    digest = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return {"x-hub-signature-256": f"sha256={digest}", "X-GitHub-Event": "push"}


def gitea_headers(secret, body):
    digest = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return {"X-Gitea-Signature": digest, "X-Gitea-Event": "push"}


def gitlab_headers(secret, body):
    return {"X-Gitlab-Token": secret, "X-Gitlab-Event": "Push Hook"}


SIGNERS = {"github": github_headers, "gitea": gitea_headers, "gitlab": gitlab_headers}
BODY = b'{"ref": "refs/heads/main"}'


@pytest.mark.parametrize("name", sorted(SIGNERS))
def test_webhook_with_the_secret_is_verified(name):
    assert PROVIDERS[name].verify_webhook(SIGNERS[name]("hook-secret", BODY), BODY, "hook-secret")


@pytest.mark.parametrize("name", sorted(SIGNERS))
def test_webhook_with_another_secret_is_refused(name):
    assert not PROVIDERS[name].verify_webhook(SIGNERS[name]("other-secret", BODY), BODY, "hook-secret")


@pytest.mark.parametrize("name", ["github", "gitea"])
def test_webhook_whose_body_changed_is_refused(name):
    headers = SIGNERS[name]("hook-secret", BODY)
    assert not PROVIDERS[name].verify_webhook(headers, b'{"ref": "refs/heads/evil"}', "hook-secret")


@pytest.mark.parametrize("name", sorted(SIGNERS))
def test_webhook_without_proof_is_refused(name):
    assert not PROVIDERS[name].verify_webhook({}, BODY, "hook-secret")


@pytest.mark.parametrize("name", sorted(SIGNERS))
def test_webhook_is_refused_when_no_secret_is_set(name):
    assert not PROVIDERS[name].verify_webhook(SIGNERS[name]("", BODY), BODY, "")


@pytest.mark.parametrize("name", sorted(SIGNERS))
@pytest.mark.parametrize(
    ("ref", "branch"),
    [("refs/heads/main", "main"), ("refs/heads/release/2.0", "release/2.0"), ("refs/tags/v1", None)],
)
def test_pushed_branch_is_read_from_a_push_event(name, ref, branch):
    headers = SIGNERS[name]("hook-secret", BODY)
    assert PROVIDERS[name].pushed_branch(headers, {"ref": ref}) == branch


@pytest.mark.parametrize(
    ("name", "headers"),
    [
        ("github", {"X-GitHub-Event": "ping"}),
        ("gitlab", {"X-Gitlab-Event": "Merge Request Hook"}),
        ("gitea", {"X-Gitea-Event": "pull_request"}),
    ],
)
def test_pushed_branch_is_none_for_other_events(name, headers):
    assert PROVIDERS[name].pushed_branch(headers, {"ref": "refs/heads/main"}) is None


# the stand-ins hold the providers to the API descriptions
def test_stand_in_reports_a_path_the_description_lacks(host, http):
    http.get(f"{host.api_url}/repos/owner/name/pulls/1/merge", headers={"Authorization": f"token {TOKEN}"})
    assert host.errors and "no such operation" in host.errors[0]
    host.errors.clear()


@pytest.mark.parametrize("host", ["github"], indirect=True)
def test_stand_in_reports_a_field_the_description_does_not_name(host, http):
    headers = {"Authorization": f"Bearer {TOKEN}"}
    http.post(
        f"{host.api_url}/repos/owner/name/pulls",
        headers=headers,
        json={"head": HEAD, "base": "main", "titel": "T"},
    )
    assert host.errors == ["POST /repos/owner/name/pulls: body field titel is not in the description"]
    host.errors.clear()


@pytest.mark.parametrize("name", sorted(STAND_INS))
def test_stand_in_reports_a_response_the_description_does_not_allow(name):
    api = ApiDescription(name, STAND_INS[name].error_schema)
    create = next(operation for _, method, operation in api.operations if method == "POST")
    assert api.response_errors(create, 418, {})
    assert api.response_errors(create, 201, {"number": "one", "iid": "one"})
