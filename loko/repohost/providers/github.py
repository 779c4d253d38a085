"""GitHub and GitHub Enterprise Server, through the REST API (version 2022-11-28)."""

from urllib.parse import urlsplit, urlunsplit

from loko.repohost.providers import (
    RestProvider,
    branch_of_push,
    header,
    hmac_sha256_matches,
    segment,
    tag_of_push,
)
from loko.repohost.providers.base import ProviderError, PullRequest


class GitHub(RestProvider):
    name = "github"
    label = "GitHub"
    default_api_url = "https://api.github.com"
    api_path = "/api/v3"  # GitHub Enterprise Server: https://host/api/v3

    def request_headers(self) -> dict[str, str]:
        return {
            "Authorization": f"Bearer {self.token}",
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28",
        }

    def web_root(self) -> str:
        # api.github.com serves github.com, as api.<name>.ghe.com serves <name>.ghe.com.
        parts = urlsplit(super().web_root())
        return urlunsplit(parts._replace(netloc=parts.netloc.removeprefix("api.")))

    def git_credentials(self) -> tuple[str, str]:
        return ("x-access-token", self.token)

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
                f"GitHub: the token can read {self.repository} but not push to it", 200, "no_write_access"
            )
        try:
            self.send("GET", f"{self._repo()}/branches/{segment(branch)}")
        except ProviderError as error:
            raise self.explained(
                error, 404, "branch_missing", f"{self.repository} has no branch {branch}"
            ) from None

    def find_pull_request(self, head: str, base: str) -> PullRequest | None:
        owner = self.repository.split("/")[0]
        query = {"head": f"{owner}:{head}", "base": base, "state": "open", "per_page": 100}
        for pull in self.pages(f"{self._repo()}/pulls", query):
            if (pull.get("head") or {}).get("ref") == head and (pull.get("base") or {}).get("ref") == base:
                return self._read(pull)
        return None

    def open_pull_request(self, head: str, base: str, title: str, body: str) -> PullRequest:
        payload = {"title": title, "head": head, "base": base, "body": body}
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
        signature = header(headers, "X-Hub-Signature-256") or ""
        if not signature.startswith("sha256="):
            return False
        return hmac_sha256_matches(secret, body, signature.removeprefix("sha256="))

    @staticmethod
    def pushed_branch(headers, payload: dict) -> str | None:
        if header(headers, "X-GitHub-Event") != "push":
            return None
        return branch_of_push(payload.get("ref"))

    @staticmethod
    def pushed_tag(headers, payload: dict) -> str | None:
        if header(headers, "X-GitHub-Event") != "push":
            return None
        return tag_of_push(payload)
