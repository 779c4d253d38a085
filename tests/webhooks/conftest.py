"""What the webhook tests share: a receiver on the loopback (an http.server thread) that
answers a scripted list of statuses, and the jobs run one at a time, made due at once. A
test that connects beyond the loopback, or sends a name to DNS, fails."""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.factories import run_jobs as run_factory_jobs
from tests.repohost.loopback import refuse_beyond_loopback


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch):
    refuse_beyond_loopback(monkeypatch)


class Receiver:
    """Records each request (headers, body) and answers the next status of ``statuses``
    (the last one once they run out), after calling ``on_request`` when one is set."""

    def __init__(self, statuses=(200,)):
        self.statuses = list(statuses)
        self.requests: list[tuple[dict, bytes]] = []
        self.on_request = None
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.requests.append(({k.lower(): v for k, v in self.headers.items()}, body))
                if receiver.on_request is not None:
                    receiver.on_request()
                status = receiver.statuses.pop(0) if len(receiver.statuses) > 1 else receiver.statuses[0]
                answer = b'{"ok": false}' if status >= 300 else b'{"ok": true}'
                self.send_response(status)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *_args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks/loko"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "Receiver":
        self.thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


@pytest.fixture
def receiver():
    def make(*statuses):
        return Receiver(statuses or (200,))

    return make


def run_jobs(app, limit: int = 20) -> int:
    """Run the runnable jobs one by one, each queued one made due first (no waiting out the
    backoff); how many ran."""
    return run_factory_jobs(app, limit, due_at_once=True)
