"""Notifications' figures beside their targets: an import of 10,000 keys into a project with
1,000 members who chose e-mail at once, queued as messages (the after-commit hook and the
fan-out job) and sent to a local SMTP server (aiosmtpd on 127.0.0.1), and the bell's unread
count as its endpoint answers it.

    python -m bench.notifications [--members N] [--keys N]
"""

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

TARGETS = {
    "queued_s": ("import of 10,000 keys, 1,000 members: messages queued (s)", 1.0),
    "sent_s": ("... and sent to the local SMTP server (s)", 60.0),
    "bell_ms": ("the bell's unread count, p50 (ms)", 5.0),
}


class Inbox:
    def __init__(self):
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        return "250 OK"


def measure(workdir: Path, members: int, keys: int) -> dict:
    import socket

    import orjson
    from aiosmtpd.controller import Controller
    from sqlalchemy import insert, select

    from loko import create_app
    from loko.apikeys.service import issue_api_key
    from loko.auth.identity import SESSION_COOKIE
    from loko.auth.models import User
    from loko.auth.service import create_user, open_session
    from loko.database import unit_of_work
    from loko.database import upgrade_schema as upgrade
    from loko.database.columns import new_id
    from loko.extensions import db
    from loko.jobs.models import QUEUED, Job
    from loko.jobs.worker import Worker
    from loko.languages.service import ensure_languages
    from loko.notifications.models import NotificationRule
    from loko.organizations.models import OrganizationMember
    from loko.projects.models import ProjectMember
    from loko.projects.service import insert_project

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    app = create_app(
        {
            "LOKO_DATABASE_URL": f"sqlite:///{workdir / 'bench.db'}",
            "LOKO_SECRET_KEY": "bench",
            "LOKO_DATA_DIR": str(workdir),
            "LOKO_SMTP_HOST": "127.0.0.1",
            # The fan-out's own cost is measured: no waiting for more new keys first.
            "LOKO_NEW_KEYS_WAIT_SECONDS": 0,
            "LOKO_SMTP_PORT": port,
            "LOKO_SMTP_TLS": "none",
            "LOKO_MAIL_FROM": "loko@example.test",
        }
    )
    try:
        with app.app_context():
            upgrade()
            with unit_of_work():
                _owner, org = create_user("owner@example.test", "bench-password", "Owner")
                project_id = insert_project(org.id, "Notify").id
                ensure_languages(project_id, ["en", "de"])
                people = [
                    {
                        "id": new_id(),
                        "email": f"member{i}@example.test",
                        "name": f"Member {i}",
                        "password_hash": "x",
                    }
                    for i in range(members)
                ]
                db.session.execute(insert(User), people)
                db.session.execute(
                    insert(OrganizationMember),
                    [{"organization_id": org.id, "user_id": p["id"], "role": "member"} for p in people],
                )
                db.session.execute(
                    insert(ProjectMember),
                    [{"project_id": project_id, "user_id": p["id"], "role": "editor"} for p in people],
                )
                db.session.execute(
                    insert(NotificationRule),
                    [
                        {"user_id": p["id"], "project_id": project_id, "kind": "keys.new", "channel": "email"}
                        for p in people
                    ],
                )
                key, _record = issue_api_key(project_id, "ci", "write", created_by=None)
            with unit_of_work():
                session_token = open_session(people[0]["id"], 14)
            db.session.remove()
        client = app.test_client()
        document = orjson.dumps({f"key{i:05d}": f"Text {i}" for i in range(keys)})
        started = time.perf_counter()
        response = client.post(
            f"/api/projects/{project_id}/import",
            data=document,
            query_string={"fileName": "home", "language": "en", "format": "json"},
            headers={"Content-Type": "application/octet-stream", "Authorization": f"Bearer {key}"},
        )
        imported = time.perf_counter()
        assert response.status_code == 200, response.json
        worker = Worker(app)
        worker.run_one()  # the fan-out: the messages and their e-mail jobs
        queued = time.perf_counter()
        while worker.run_one():
            pass
        deadline = time.monotonic() + 60
        while inbox.count < members and time.monotonic() < deadline:
            time.sleep(0.05)
        sent = time.perf_counter()
        with app.app_context():
            left = db.session.execute(select(Job.id).where(Job.state == QUEUED)).all()
            db.session.remove()
        client.set_cookie(SESSION_COOKIE, session_token)
        timings = []
        for _ in range(200):
            before = time.perf_counter()
            answer = client.get("/api/notifications/unread")
            timings.append((time.perf_counter() - before) * 1000)
        unread = answer.json
        # The same request's cost without the count: who is signed in, answered.
        baseline = []
        for _ in range(200):
            before = time.perf_counter()
            client.get("/api/auth/me")
            baseline.append((time.perf_counter() - before) * 1000)
        counts = []
        with app.app_context():
            from loko.auth.service import user_actor
            from loko.notifications.service import unread_count

            actor = user_actor(db.session.get(User, people[0]["id"]))
            for _ in range(200):
                before = time.perf_counter()
                unread_count(actor)
                counts.append((time.perf_counter() - before) * 1000)
            db.session.remove()
        with app.app_context():
            db.engine.dispose()
        return {
            "import_s": imported - started,
            "queued_s": queued - imported,
            "sent_s": sent - imported,
            "emails": inbox.count,
            "left": len(left),
            "bell_ms": statistics.median(timings),
            "me_ms": statistics.median(baseline),
            "count_ms": statistics.median(counts),
            "unread": unread,
        }
    finally:
        controller.stop()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=1000)
    parser.add_argument("--keys", type=int, default=10_000)
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="loko-bench-notifications-"))
    try:
        figures = measure(workdir, args.members, args.keys)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"\nNotifications (SQLite, in-process worker, aiosmtpd on 127.0.0.1; {args.members} members)")
    print(f"  {'the import itself (s)':<62} {figures['import_s']:>8.2f}")
    for name, (label, target) in TARGETS.items():
        value = figures[name]
        print(f"  {label:<62} {value:>8.2f}   target < {target:g}: {'ok' if value < target else 'MISSED'}")
    print(f"  {'  of which the count itself, p50 (ms)':<62} {figures['count_ms']:>8.2f}")
    print(f"  {'  /api/auth/me by the same session, p50 (ms), for scale':<62} {figures['me_ms']:>8.2f}")
    print(f"  {'e-mails received':<62} {figures['emails']:>8}")
    print(f"  {'bell answer (a member)':<62} {figures['unread']!s:>8}")
    return 0 if figures["emails"] == args.members else 1


if __name__ == "__main__":
    sys.exit(main())
