"""The three hosts behind ``base.Provider``, the one place that picks one by name
(``provider_for``), and what their REST APIs share (``RestProvider``): JSON over HTTPS with
the token in a header, a refusal carrying a ``message``, lists paged by ``Link: rel="next"``.
"""

import hashlib
import hmac
import json
from abc import abstractmethod
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlsplit

from loko.repohost.providers.base import Provider, ProviderError, PullRequest

if TYPE_CHECKING:
    import httpx

# A list longer than this many pages is not one Loko needs to read to the end.
MAX_PAGES = 50
MESSAGE_LIMIT = 300
PROBLEM_BY_STATUS = {401: "unauthorized", 403: "no_write_access", 404: "not_found", 429: "unavailable"}


class RestProvider(Provider):
    """A ``Provider`` over a REST API; subclasses name the host and its authentication."""

    label = ""  # the host as people name it, at the start of every message
    api_path = ""  # the API's path under the web root of a self-hosted instance ("/api/v4")

    @abstractmethod
    def request_headers(self) -> dict[str, str]:
        """The token, and what else the host wants on every request."""

    def web_root(self) -> str:
        """The instance's web address: the API URL less its API path."""
        parts = urlsplit(self.api_url)
        path = parts.path.removesuffix(self.api_path) if self.api_path else parts.path
        return f"{parts.scheme}://{parts.netloc}{path}".rstrip("/")

    def git_url(self) -> str:
        return f"{self.web_root()}/{self.repository}.git"

    # HTTP
    def send(self, method: str, path: str, *, params=None, json_body=None, url: str | None = None):
        """The 2xx response to ``method`` on ``path`` under the API root (or on ``url``);
        ProviderError for a refusal or a network failure."""
        import httpx  # loaded with the first call (loko.outbound)

        try:
            response = self.http.request(
                method,
                url or f"{self.api_url}{path}",
                params=params,
                json=json_body,
                headers={"Accept": "application/json", **self.request_headers()},
            )
        except httpx.HTTPError as error:
            detail = str(error) or type(error).__name__
            raise ProviderError(
                self.scrub(f"{self.label} could not be reached: {detail}"), None, "unavailable"
            ) from None
        if not response.is_success:
            raise self.refusal(response)
        return response

    def send_json(self, method: str, path: str, **kwargs) -> Any:
        return self.parse(self.send(method, path, **kwargs))

    def pages(self, path: str, params: dict) -> Iterator[dict]:
        """Every item of a paged list, following ``Link: rel="next"`` within the API root only
        (the token never goes anywhere else)."""
        following, query = None, params
        for _ in range(MAX_PAGES):
            response = self.send("GET", path, params=query, url=following)
            items = self.parse(response)
            if not isinstance(items, list):
                raise ProviderError(
                    f"{self.label} answered a list request with {type(items).__name__}", response.status_code
                )
            yield from items
            following = response.links.get("next", {}).get("url")
            if not items or not following:
                return
            if not following.startswith(f"{self.api_url}/"):
                raise ProviderError(
                    f"{self.label} sent a next page outside its API: {following}", response.status_code
                )
            query = None  # the next page's URL carries the query

    def parse(self, response: "httpx.Response") -> Any:
        try:
            return response.json()
        except ValueError:
            raise ProviderError(
                f"{self.label} answered {response.status_code} with a body that is not JSON",
                response.status_code,
            ) from None

    def refusal(self, response: "httpx.Response") -> ProviderError:
        status = response.status_code
        problem = PROBLEM_BY_STATUS.get(status, "unavailable" if status >= 500 else "refused")
        if status == 403 and response.headers.get("x-ratelimit-remaining") == "0":
            problem = "unavailable"  # GitHub's rate limit, not a missing permission
        message = self.scrub(f"{self.label} answered {status}: {_host_message(response)}")
        return ProviderError(message, status, problem)

    def scrub(self, text: str) -> str:
        """``text`` without the token, whatever a host or a library echoed."""
        return text.replace(self.token, "[token]") if self.token else text

    def explained(self, error: ProviderError, status: int, problem: str, message: str) -> ProviderError:
        """``error`` reworded when the host answered ``status``, as the call's context tells
        what that status means; unchanged otherwise."""
        if error.status != status:
            return error
        return ProviderError(self.scrub(f"{self.label}: {message} ({error.message})"), status, problem)

    def read_pull_request(
        self, data: Any, number_key: str, url_key: str, branch_keys: tuple[str, ...]
    ) -> PullRequest:
        """A PullRequest from the host's JSON object; ``branch_keys`` lead to the head branch."""
        try:
            head: Any = data
            for key in branch_keys:
                head = head[key]
            return PullRequest(url=str(data[url_key]), number=int(data[number_key]), branch=str(head))
        except (KeyError, TypeError, ValueError):
            raise ProviderError(f"{self.label} answered with a pull request Loko cannot read") from None


def segment(value: str) -> str:
    """One path segment: a branch or project path whose ``/`` must not split the URL."""
    return quote(value, safe="")


def header(headers, name: str) -> str | None:
    """``name`` from any headers object: werkzeug's and httpx's, or a plain dict."""
    value = headers.get(name)
    if value is None and isinstance(headers, Mapping):
        wanted = name.lower()
        value = next((v for k, v in headers.items() if str(k).lower() == wanted), None)
    return value


def hmac_sha256_matches(secret: str, body: bytes, signature: str | None) -> bool:
    """True when ``signature`` is the hex HMAC-SHA256 of ``body`` under ``secret``."""
    if not secret or not signature:
        return False
    expected = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected.encode(), signature.strip().lower().encode())


# A push that deletes a ref names this commit as the ref's new one.
NO_COMMIT = "0" * 40


def tag_of_push(payload: dict) -> str | None:
    """The tag a push created (``refs/tags/<tag>``, not deleted), or None."""
    ref = payload.get("ref")
    if not isinstance(ref, str) or not ref.startswith("refs/tags/"):
        return None
    if payload.get("deleted") is True or payload.get("after") == NO_COMMIT:
        return None
    return ref.removeprefix("refs/tags/") or None


def branch_of_push(ref: Any) -> str | None:
    return ref.removeprefix("refs/heads/") if isinstance(ref, str) and ref.startswith("refs/heads/") else None


def _host_message(response: "httpx.Response") -> str:
    try:
        data = response.json()
    except ValueError:
        return response.reason_phrase or "no explanation"
    if not isinstance(data, dict):
        return response.reason_phrase or "no explanation"
    message = data.get("message", data.get("error", response.reason_phrase))
    if not isinstance(message, str):  # GitLab's validation errors: {"field": ["is too long"]}
        message = json.dumps(message, ensure_ascii=False)
    details = [e["message"] for e in data.get("errors") or [] if isinstance(e, dict) and e.get("message")]
    if details:  # GitHub's 422: "Validation Failed" with the reason in errors[].message
        message = f"{message} ({'; '.join(details)})"
    return message[:MESSAGE_LIMIT]


# The provider modules import the helpers above, so they come last.
from loko.repohost.providers.gitea import Gitea  # noqa: E402
from loko.repohost.providers.github import GitHub  # noqa: E402
from loko.repohost.providers.gitlab import GitLab  # noqa: E402

PROVIDERS: dict[str, type[RestProvider]] = {"github": GitHub, "gitlab": GitLab, "gitea": Gitea}


def provider_for(
    name: str, repository: str, token: str, api_url: str | None, http: "httpx.Client"
) -> Provider:
    """The provider ``name`` for ``repository``; KeyError for a name not in ``PROVIDERS``."""
    return PROVIDERS[name](repository, token, api_url, http)
