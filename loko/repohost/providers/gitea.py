"""Gitea (gitea.com or self-hosted; Forgejo speaks the same API), through the REST API v1."""

from loko.repohost.providers import (
    RestProvider,
    branch_of_push,
    header,
    hmac_sha256_matches,
    segment,
    tag_of_push,
)
from loko.repohost.providers.base import ProviderError, PullRequest

PAGE_SIZE = 50  # Gitea's default ceiling (MAX_RESPONSE_ITEMS)


class Gitea(RestProvider):
    name = "gitea"
    label = "Gitea"
    default_api_url = "https://gitea.com/api/v1"
    api_path = "/api/v1"

    def request_headers(self) -> dict[str, str]:
        return {"Authorization": f"token {self.token}"}

    def git_credentials(self) -> tuple[str, str]:
        # Gitea takes an access token as the password of any user name.
        return ("loko", self.token)

    def _repo(self) -> str:
        return "/repos/" + "/".join(segment(part) for part in self.repository.split("/"))

    def check(self, branch: str) -> None:
        try:
            repo = self.send_json("GET", self._repo())
        except ProviderError as error:
            raise self.explained(
                error, 404, "not_found", f"no repository {self.repository}, or the token cannot see it"
            ) from None
        permissions = repo.get("permissions") if isinstance(repo, dict) else None
        if not (permissions or {}).get("push"):
            raise ProviderError(
                f"Gitea: the token can read {self.repository} but not push to it", 200, "no_write_access"
            )
        try:
            self.send("GET", f"{self._repo()}/branches/{segment(branch)}")
        except ProviderError as error:
            raise self.explained(
                error, 404, "branch_missing", f"{self.repository} has no branch {branch}"
            ) from None

    def find_pull_request(self, head: str, base: str) -> PullRequest | None:
        # Gitea filters open pull requests by base branch only (``base_branch``, ignored by
        # older servers); the head branch, in this repository rather than a fork, is matched here.
        query = {"state": "open", "base_branch": base, "limit": PAGE_SIZE}
        for pull in self.pages(f"{self._repo()}/pulls", query):
            head_info, base_info = pull.get("head") or {}, pull.get("base") or {}
            same_repository = head_info.get("repo_id") == base_info.get("repo_id")
            if same_repository and head_info.get("ref") == head and base_info.get("ref") == base:
                return self._read(pull)
        return None

    def open_pull_request(self, head: str, base: str, title: str, body: str) -> PullRequest:
        payload = {"head": head, "base": base, "title": title, "body": body}
        return self._read(self.send_json("POST", f"{self._repo()}/pulls", json_body=payload))

    def update_pull_request(self, number: int, title: str, body: str) -> PullRequest:
        payload = {"title": title, "body": body}
        return self._read(self.send_json("PATCH", f"{self._repo()}/pulls/{number}", json_body=payload))

    def close_pull_request(self, number: int) -> None:
        self.send("PATCH", f"{self._repo()}/pulls/{number}", json_body={"state": "closed"})

    def _read(self, data) -> PullRequest:
        return self.read_pull_request(data, "number", "html_url", ("head", "ref"))

    @staticmethod
    def verify_webhook(headers, body: bytes, secret: str) -> bool:
        return hmac_sha256_matches(secret, body, header(headers, "X-Gitea-Signature"))

    @staticmethod
    def pushed_branch(headers, payload: dict) -> str | None:
        if header(headers, "X-Gitea-Event") != "push":
            return None
        return branch_of_push(payload.get("ref"))

    @staticmethod
    def pushed_tag(headers, payload: dict) -> str | None:
        if header(headers, "X-Gitea-Event") != "push":
            return None
        return tag_of_push(payload)
