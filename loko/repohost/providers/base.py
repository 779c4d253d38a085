"""The interface every provider implements, and what they share."""

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING

from loko.outbound import OutboundError

if TYPE_CHECKING:
    import httpx


@dataclass(frozen=True)
class PullRequest:
    url: str  # the page people open (html_url / web_url)
    number: int  # GitHub/Gitea number, GitLab iid
    branch: str  # the head branch


# A provider refused or failed; ``message`` says what it answered, for a 502 or a 400.
# ``status`` is the provider's HTTP status (None for a network failure); ``problem`` is one of
# "not_found" (repository), "no_write_access", "branch_missing", "unauthorized", "unavailable",
# "refused" so that callers can word the connection check precisely. It is the outbound
# room's error, so that a refused address (``outbound.AddressRefused``) is one too.
ProviderError = OutboundError


class Provider(ABC):
    """One repository on one host, reached with one token through ``http`` (an
    ``httpx.Client`` made by ``outbound.http_client``: timeouts and the address check included).

    ``repository`` is ``owner/name`` (GitLab: the project's full path, groups included);
    ``api_url`` overrides the public host's API root (GitHub Enterprise, self-hosted GitLab
    or Gitea): the git URL then uses the same scheme and host.
    """

    name = ""
    default_api_url = ""

    def __init__(self, repository: str, token: str, api_url: str | None, http: "httpx.Client"):
        self.repository, self.token, self.http = repository, token, http
        self.api_url = (api_url or self.default_api_url).rstrip("/")

    # git
    @abstractmethod
    def git_url(self) -> str:
        """The repository's smart-HTTP URL (``https://host/owner/name.git``)."""

    @abstractmethod
    def git_credentials(self) -> tuple[str, str]:
        """``(username, password)`` for git over HTTPS with the token."""

    # API
    @abstractmethod
    def check(self, branch: str) -> None:
        """ProviderError (with ``problem``) unless the repository exists, the token may push
        to it, and ``branch`` exists."""

    @abstractmethod
    def find_pull_request(self, head: str, base: str) -> PullRequest | None:
        """The open pull request from ``head`` into ``base``, if any."""

    @abstractmethod
    def open_pull_request(self, head: str, base: str, title: str, body: str) -> PullRequest:
        """Open a pull request from ``head`` into ``base``."""

    @abstractmethod
    def update_pull_request(self, number: int, title: str, body: str) -> PullRequest:
        """Set the title and body of pull request ``number``."""

    @abstractmethod
    def close_pull_request(self, number: int) -> None:
        """Close pull request ``number`` without merging it."""

    # webhooks
    @staticmethod
    @abstractmethod
    def verify_webhook(headers, body: bytes, secret: str) -> bool:
        """True when the request carries the provider's proof of ``secret`` (GitHub
        ``X-Hub-Signature-256``, Gitea ``X-Gitea-Signature``: HMAC-SHA256 of the body;
        GitLab ``X-Gitlab-Token``: the secret itself), compared in constant time."""

    @staticmethod
    @abstractmethod
    def pushed_branch(headers, payload: dict) -> str | None:
        """The branch a push event updated (``refs/heads/<branch>``), None for other events."""

    @staticmethod
    @abstractmethod
    def pushed_tag(headers, payload: dict) -> str | None:
        """The tag a push event created (``refs/tags/<tag>``), None for other events and for
        a tag's deletion."""
