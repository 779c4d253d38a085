"""The ``loko`` command's entry point. The pipeline commands (``init``, ``push``, ``pull``,
``status``, ``repohost``, ``tasks``) are HTTP clients of a server: they start without importing the
server's code (Flask, SQLAlchemy), which is most of a command's start-up time."""

import sys

CLIENT_COMMANDS = {"init", "push", "pull", "status", "repohost", "tasks"}


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] in CLIENT_COMMANDS:
        from loko.client.commands import client_main

        client_main(prog_name="loko")
        return
    from loko.cli import main as server_main

    server_main(prog_name="loko")
