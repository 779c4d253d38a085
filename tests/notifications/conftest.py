"""A real SMTP server on the loopback (aiosmtpd) that keeps what it receives, and a helper
that runs the queued jobs."""

import email
import email.policy
import socket
from datetime import timedelta

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import update

from loko.database import unit_of_work, utcnow
from loko.extensions import db
from loko.jobs.models import QUEUED, Job
from loko.jobs.worker import Worker
from tests.pages.conftest import page_as  # noqa: F401 (a fixture)


class Inbox:
    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
        return "250 OK"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def smtp_server():
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield controller, inbox
    controller.stop()


@pytest.fixture
def inbox(smtp_server):
    _controller, kept = smtp_server
    kept.messages.clear()
    return kept


@pytest.fixture
def config_overrides(smtp_server, request):
    """The local SMTP server's settings; a test parametrised indirectly gives its own."""
    if hasattr(request, "param"):
        return request.param
    controller, _inbox = smtp_server
    return {
        "LOKO_SMTP_HOST": "127.0.0.1",
        "LOKO_SMTP_PORT": controller.port,
        "LOKO_SMTP_TLS": "none",
        "LOKO_MAIL_FROM": "loko@example.test",
        "LOKO_PUBLIC_URL": "http://loko.example.test",
    }


def run_jobs(app, limit: int = 200) -> int:
    """Run the runnable jobs one by one (each made due first); how many ran."""
    worker, ran = Worker(app), 0
    while ran < limit:
        with app.app_context(), unit_of_work():
            db.session.execute(
                update(Job).where(Job.state == QUEUED).values(run_after=utcnow() - timedelta(seconds=1))
            )
        if not worker.run_one():
            break
        ran += 1
    return ran
