"""The Loko server as the pipeline sees it: calls of its REST API (chiefly the import, the
export and the screenshots' archive import) over one HTTP client with a Bearer API key,
timeouts and TLS verification. A large import runs as a background job on the server
(``async=true``), which is polled until it ends."""

import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib.metadata import version
from typing import TYPE_CHECKING
from urllib.parse import quote

import click

if TYPE_CHECKING:
    import httpx

CONNECT_TIMEOUT = 10.0
READ_TIMEOUT = 300.0
# Transfers smaller than this are over before a progress bar would be worth drawing.
PROGRESS_THRESHOLD = 1024 * 1024
UPLOAD_CHUNK = 64 * 1024
# The wait between two looks at an import job: the first soon, then less and less often.
JOB_POLL_FIRST = 0.2
JOB_POLL_MAX = 2.0
JOB_WAIT_LIMIT = 3600.0
JOB_FINISHED = ("succeeded", "failed", "cancelled")
REVIEW_PAGE = 1000  # the most values the review queue answers in one page


class ServerError(click.ClickException):
    """The server could not be reached or refused the request (exit 1)."""

    exit_code = 1


@dataclass(frozen=True)
class ExportAnswer:
    """An export: ``body`` is None when the server answered 304 (nothing changed)."""

    etag: str | None
    body: bytes | None

    @property
    def not_modified(self) -> bool:
        return self.body is None


def _error_text(response: "httpx.Response") -> str:
    try:
        message = response.json().get("error")
    except (ValueError, AttributeError):
        message = None
    text = str(message) if message else response.reason_phrase or "no reason given"
    return f"{text} (HTTP {response.status_code})"


def _checked_answer(response: "httpx.Response", fits: Callable[[object], bool], what: str):
    """The response's JSON when ``fits`` it; ServerError saying it is not ``what`` otherwise."""
    try:
        answer = response.json()
    except ValueError:
        answer = None
    if not fits(answer):
        raise ServerError(f"the server's answer {what}: {response.text[:200]!r}")
    return answer


def _import_result(answer, response: "httpx.Response") -> dict:
    if not isinstance(answer, dict) or not isinstance(answer.get("summary"), dict):
        raise ServerError(
            f"the server's answer to the import is not an import result: {response.text[:200]!r}"
        )
    return answer


def _progress_bar(label: str, length: int | None):
    """A progress bar on stderr; for an unknown length it pulses and counts bytes."""

    def unsized():
        yield from ()

    return click.progressbar(
        iterable=None if length else unsized(),
        length=length or None,
        label=label,
        file=sys.stderr,
        show_pos=not length,
    )


class Remote:
    """``with Remote(...) as remote:``; every failure is a ServerError naming the cause."""

    def __init__(
        self,
        url: str,
        project: str,
        api_key: str,
        show_progress: bool = False,
        transport: "httpx.BaseTransport | None" = None,
    ):
        import httpx  # loaded by the commands that call a server, not by ``loko serve``

        self.url = url
        self.show_progress = show_progress
        self.base = f"/api/projects/{quote(project, safe='')}"
        self.client = httpx.Client(
            base_url=url,
            headers={"Authorization": f"Bearer {api_key}", "User-Agent": f"loko-cli/{version('loko')}"},
            timeout=httpx.Timeout(READ_TIMEOUT, connect=CONNECT_TIMEOUT),
            verify=True,
            follow_redirects=False,
            transport=transport,
        )

    def __enter__(self) -> "Remote":
        return self

    def __exit__(self, *_exc) -> None:
        self.client.close()

    @contextlib.contextmanager
    def _transport_errors(self) -> Iterator[None]:
        import httpx

        try:
            yield
        except httpx.TimeoutException as error:
            raise ServerError(f"{self.url} did not answer in time ({type(error).__name__})") from None
        except httpx.HTTPError as error:
            raise ServerError(f"cannot reach {self.url}: {error}") from None

    def _check(self, response: "httpx.Response") -> None:
        status = response.status_code
        if 300 <= status < 400 and status != 304:
            location = response.headers.get("Location", "elsewhere")
            raise ServerError(
                f"the server redirects to {location}: set the url to the address it redirects to"
            )
        if status == 401:
            raise ServerError(f"{_error_text(response)}: check LOKO_API_KEY")
        if status >= 400:
            raise ServerError(_error_text(response))

    def _upload(self, body: bytes):
        if not self.show_progress or len(body) < PROGRESS_THRESHOLD:
            return body

        def chunks():
            with _progress_bar("Uploading", len(body)) as bar:
                for start in range(0, len(body), UPLOAD_CHUNK):
                    chunk = body[start : start + UPLOAD_CHUNK]
                    yield chunk
                    bar.update(len(chunk))

        return chunks()

    def import_archive(
        self,
        archive: bytes,
        *,
        format: str,
        path_template: str,
        mode: str,
        removed_keys: str,
        dry_run: bool,
        run_async: bool = False,
        on_job: Callable[[dict], None] | None = None,
    ) -> dict:
        """``POST /import`` of one ZIP; the server's answer (the diff it applied, or would).
        With ``run_async`` the server runs it as a job, which is polled until it ends
        (``on_job`` sees the job after each look); its result is the same answer."""
        params = {
            "format": format,
            "pathTemplate": path_template,
            "mode": mode,
            "removedKeys": removed_keys,
            "dryRun": "true" if dry_run else "false",
        }
        if run_async:
            params["async"] = "true"
        headers = {"Content-Type": "application/zip", "Content-Length": str(len(archive))}
        with self._transport_errors():
            response = self.client.post(
                f"{self.base}/import", params=params, content=self._upload(archive), headers=headers
            )
        self._check(response)
        try:
            answer = response.json()
        except ValueError:
            answer = None
        if run_async and response.status_code == 202:
            job = answer.get("job") if isinstance(answer, dict) else None
            if not isinstance(job, dict) or not isinstance(job.get("id"), str):
                raise ServerError(f"the server's answer to the import is not a job: {response.text[:200]!r}")
            answer = self.wait_for_job(job, on_job)
        return _import_result(answer, response)

    def import_screenshots(self, archive: bytes, *, dry_run: bool) -> dict:
        """``POST /screenshots/archive`` of one ZIP of images and screenshots.json; the
        server's answer (what it created, found and skipped, or would)."""
        headers = {"Content-Type": "application/zip", "Content-Length": str(len(archive))}
        with self._transport_errors():
            response = self.client.post(
                f"{self.base}/screenshots/archive",
                params={"dryRun": "true" if dry_run else "false"},
                content=self._upload(archive),
                headers=headers,
            )
        if response.status_code == 413:
            raise ServerError(f"{_error_text(response)}: push fewer images at a time (a subfolder)")
        self._check(response)
        return _checked_answer(
            response,
            lambda answer: (
                isinstance(answer, dict)
                and isinstance(answer.get("summary"), dict)
                and isinstance(answer.get("screenshots"), list)
            ),
            "to the screenshots is not an import result",
        )

    def wait_for_job(self, job: dict, on_job: Callable[[dict], None] | None = None) -> dict | None:
        """Look at ``job`` (``GET /jobs/{id}``) until it has finished; its result. A failed or
        cancelled job is a ServerError with its error, and so is one still unfinished after
        ``JOB_WAIT_LIMIT`` seconds."""
        started, pause = time.monotonic(), JOB_POLL_FIRST
        while True:
            if on_job is not None:
                on_job(job)
            state = job.get("state")
            if state == "succeeded":
                return job.get("result")
            if state in ("failed", "cancelled"):
                error = job.get("error") or "no error given"
                raise ServerError(f"the import job {job['id']} {state}: {error}")
            if time.monotonic() - started > JOB_WAIT_LIMIT:
                raise ServerError(
                    f"the import job {job['id']} is still {state} after {JOB_WAIT_LIMIT:.0f} seconds: "
                    "see the project's Jobs page"
                )
            time.sleep(pause)
            pause = min(pause * 1.5, JOB_POLL_MAX)
            job = self._job(job["id"])

    def _job(self, job_id: str) -> dict:
        with self._transport_errors():
            response = self.client.get(f"{self.base}/jobs/{quote(job_id, safe='')}")
        self._check(response)
        try:
            job = response.json().get("job")
        except (ValueError, AttributeError):
            job = None
        if not isinstance(job, dict) or job.get("state") not in (*JOB_FINISHED, "queued", "running"):
            raise ServerError(f"the server's answer about job {job_id} is not a job: {response.text[:200]!r}")
        return job

    def repohost(self, action: str, body: dict | None = None) -> dict:
        """``POST /repohost/{action}`` (push or sync); the server's JSON answer."""
        with self._transport_errors():
            response = self.client.post(f"{self.base}/repohost/{action}", json=body or {})
        self._check(response)
        try:
            return response.json()
        except ValueError:
            raise ServerError(f"the server's answer is not JSON: {response.text[:200]!r}") from None

    def checks(self) -> dict:
        """``GET /checks``: the checks' levels, issue counts per language and check, and the
        values waiting for a review (the first page of issues too)."""
        with self._transport_errors():
            response = self.client.get(f"{self.base}/checks", params={"limit": 1})
        self._check(response)
        return _checked_answer(
            response,
            lambda answer: isinstance(answer, dict) and isinstance(answer.get("counts"), list),
            "about checks is not a report",
        )

    def tasks(self, state: str) -> list:
        """``GET /tasks?state=``: the project's tasks with their progress."""
        with self._transport_errors():
            response = self.client.get(f"{self.base}/tasks", params={"state": state})
        self._check(response)
        return _checked_answer(
            response,
            lambda answer: isinstance(answer, dict) and isinstance(answer.get("tasks"), list),
            "about tasks is not a list",
        )["tasks"]

    def task_write(self, method: str, path: str, body: dict) -> dict:
        """``POST /tasks`` (make one) or ``PATCH /tasks/{id}`` (change, close, reopen); the
        server's JSON answer."""
        with self._transport_errors():
            response = self.client.request(method, f"{self.base}/tasks{path}", json=body)
        self._check(response)
        return _checked_answer(
            response,
            lambda answer: isinstance(answer, dict) and "task" in answer,
            "about the task is not a task",
        )

    def review_queue(self, language: str | None, limit: int) -> dict:
        """``GET /translations/review?state=needs-review``: ``{total, values}``, the values
        waiting for a review (in ``language`` only, when given), the first ``limit`` of them
        read page by page."""
        values: list = []
        while True:
            params = {
                "state": "needs-review",
                "limit": min(REVIEW_PAGE, limit - len(values)),
                "offset": len(values),
            }
            if language:
                params["language"] = language
            with self._transport_errors():
                response = self.client.get(f"{self.base}/translations/review", params=params)
            self._check(response)
            answer = _checked_answer(
                response,
                lambda answer: (
                    isinstance(answer, dict)
                    and isinstance(answer.get("values"), list)
                    and isinstance(answer.get("total"), int)
                ),
                "about reviews is not a queue",
            )
            values += answer["values"]
            if not answer["values"] or len(values) >= min(answer["total"], limit):
                return {"total": answer["total"], "values": values}

    def source_language(self) -> str | None:
        """The project's source language setting (``GET /api/projects/{id}``); None when the
        server answers 404 (the export then names the real cause) or has no such setting."""
        with self._transport_errors():
            response = self.client.get(self.base)
        if response.status_code == 404:
            return None
        self._check(response)
        try:
            project = response.json().get("project")
        except (ValueError, AttributeError):
            project = None
        source = project.get("source_language") if isinstance(project, dict) else None
        return source if isinstance(source, str) else None

    def export(
        self,
        format: str,
        languages: tuple[str, ...] | None,
        etag: str | None,
        source_language: str | None = None,
        tags: tuple[str, ...] = (),
        exclude_tags: tuple[str, ...] = (),
        as_of: str | None = None,
        release: str | None = None,
    ) -> ExportAnswer:
        """``GET /translations`` as a ZIP, revalidated with ``etag`` when there is one. A
        bilingual file (XLIFF) names ``source_language`` as its source; without one, the server
        uses the project's source language. With ``tags``, only the keys with every one of them;
        with ``exclude_tags``, only those with none. ``as_of`` (an instant or an operation id) or
        ``release`` (a release's name): the project as it was then."""
        params = [("format", format), ("zip", "true")]
        params += [("language", language) for language in languages or ()]
        if tags:
            params.append(("tags", ",".join(tags)))
        if exclude_tags:
            params.append(("excludeTags", ",".join(exclude_tags)))
        if source_language:
            params.append(("sourceLanguage", source_language))
        if as_of:
            params.append(("asOf", as_of))
        if release:
            params.append(("release", release))
        headers = {"If-None-Match": etag} if etag else {}
        with (
            self._transport_errors(),
            self.client.stream(
                "GET", f"{self.base}/translations", params=params, headers=headers
            ) as response,
        ):
            if response.status_code == 304:
                return ExportAnswer(etag, None)
            if response.status_code >= 300:
                response.read()
                self._check(response)
            body = self._download(response)
        return ExportAnswer(response.headers.get("ETag"), body)

    def releases(self, method: str = "GET", path: str = "", body: dict | None = None, params=None) -> dict:
        """``/releases[path]``: list (GET), create (POST), delete (DELETE) or compare
        (``/<name>/compare``); the server's JSON answer."""
        with self._transport_errors():
            response = self.client.request(
                method, f"{self.base}/releases{path}", json=body, params=params or None
            )
        self._check(response)
        return _checked_answer(
            response, lambda answer: isinstance(answer, dict), "about releases is not JSON"
        )

    def _download(self, response: "httpx.Response") -> bytes:
        length = response.headers.get("Content-Length")
        total = int(length) if length and length.isdigit() else None
        body = bytearray()
        with contextlib.ExitStack() as stack:
            bar = None
            for chunk in response.iter_bytes():
                body += chunk
                if bar is not None:
                    bar.update(len(chunk))
                elif self.show_progress and len(body) >= PROGRESS_THRESHOLD and (total or 0) != len(body):
                    bar = stack.enter_context(_progress_bar("Downloading", total))
                    bar.update(len(body))
        return bytes(body)
