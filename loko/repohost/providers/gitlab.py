"""GitLab (gitlab.com or self-managed), through the REST API v4; pull requests are merge
requests, numbered by their project-scoped ``iid``."""

import hmac

from loko.repohost.providers import RestProvider, branch_of_push, header, segment, tag_of_push
from loko.repohost.providers.base import ProviderError, PullRequest

DEVELOPER = 30  # the lowest access level that may push to unprotected branches


class GitLab(RestProvider):
    name = "gitlab"
    label = "GitLab"
    default_api_url = "https://gitlab.com/api/v4"
    api_path = "/api/v4"

    def request_headers(self) -> dict[str, str]:
        return {"PRIVATE-TOKEN": self.token}

    def git_credentials(self) -> tuple[str, str]:
        return ("oauth2", self.token)

    def _project(self) -> str:
        # The project's full path, groups included, as one URL-encoded id.
        return f"/projects/{segment(self.repository)}"

    def check(self, branch: str) -> None:
        try:
            project = self.send_json("GET", self._project())
        except ProviderError as error:
            raise self.explained(
                error, 404, "not_found", f"no project {self.repository}, or the token cannot see it"
            ) from None
        if _access_level(project) < DEVELOPER and self._member_level() < DEVELOPER:
            raise ProviderError(
                f"GitLab: the token can read {self.repository} but not push to it (Developer role needed)",
                200,
                "no_write_access",
            )
        try:
            self.send("GET", f"{self._project()}/repository/branches/{segment(branch)}")
        except ProviderError as error:
            raise self.explained(
                error, 404, "branch_missing", f"{self.repository} has no branch {branch}"
            ) from None

    def _member_level(self) -> int:
        """The access level of the token's user on the project, inherited from a parent group
        or given through a group the project is shared with included; 0 for no member."""
        user = self.send_json("GET", "/user")
        user_id = user.get("id") if isinstance(user, dict) else None
        if not isinstance(user_id, int):
            raise ProviderError("GitLab answered GET /user without the user's id", 200)
        try:
            member = self.send_json("GET", f"{self._project()}/members/all/{user_id}")
        except ProviderError as error:
            if error.status == 404:
                return 0
            raise
        level = member.get("access_level") if isinstance(member, dict) else None
        return level if isinstance(level, int) else 0

    def find_pull_request(self, head: str, base: str) -> PullRequest | None:
        query = {"source_branch": head, "target_branch": base, "state": "opened", "per_page": 100}
        for merge_request in self.pages(f"{self._project()}/merge_requests", query):
            same_project = merge_request.get("source_project_id") == merge_request.get("target_project_id")
            if (
                same_project
                and merge_request.get("source_branch") == head
                and merge_request.get("target_branch") == base
            ):
                return self._read(merge_request)
        return None

    def open_pull_request(self, head: str, base: str, title: str, body: str) -> PullRequest:
        payload = {"source_branch": head, "target_branch": base, "title": title, "description": body}
        return self._read(self.send_json("POST", f"{self._project()}/merge_requests", json_body=payload))

    def update_pull_request(self, number: int, title: str, body: str) -> PullRequest:
        payload = {"title": title, "description": body}
        return self._read(
            self.send_json("PUT", f"{self._project()}/merge_requests/{number}", json_body=payload)
        )

    def close_pull_request(self, number: int) -> None:
        self.send("PUT", f"{self._project()}/merge_requests/{number}", json_body={"state_event": "close"})

    def _read(self, data) -> PullRequest:
        return self.read_pull_request(data, "iid", "web_url", ("source_branch",))

    @staticmethod
    def verify_webhook(headers, body: bytes, secret: str) -> bool:
        # GitLab signs nothing: it sends the secret itself, which is compared in constant time.
        token = header(headers, "X-Gitlab-Token")
        if not secret or token is None:
            return False
        return hmac.compare_digest(token.encode(), secret.encode())

    @staticmethod
    def pushed_branch(headers, payload: dict) -> str | None:
        if header(headers, "X-Gitlab-Event") != "Push Hook":
            return None
        return branch_of_push(payload.get("ref"))

    @staticmethod
    def pushed_tag(headers, payload: dict) -> str | None:
        if header(headers, "X-Gitlab-Event") != "Tag Push Hook":
            return None
        return tag_of_push(payload)


def _access_level(project) -> int:
    """The token's role as the project's ``permissions`` show it: its own membership or its
    group's, the higher. A role inherited from a parent group or given by sharing the project
    with a group may not show there (``_member_level`` reads it)."""
    permissions = project.get("permissions") if isinstance(project, dict) else None
    levels = [
        access.get("access_level") or 0
        for access in ((permissions or {}).get("project_access"), (permissions or {}).get("group_access"))
        if isinstance(access, dict)
    ]
    return max(levels, default=0)
