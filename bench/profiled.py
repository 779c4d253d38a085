"""``loko serve`` with every request profiled: the same app and waitress settings, and a
cProfile profiler per worker thread. On SIGTERM the profiles of all threads are merged and
written to a file that ``pstats`` reads (``bench.run --profile`` prints its top entries).

    python -m bench.profiled PORT STATS_FILE [--processes N]

Each process of ``--processes N`` writes ``STATS_FILE.<pid>``.
"""

import argparse
import cProfile
import os
import pstats
import signal
import socket
import sys
import threading


class ProfiledApp:
    """A WSGI wrapper that runs each request (its body included) under the calling thread's
    profiler."""

    def __init__(self, app):
        self.app = app
        self.local = threading.local()
        self.profiles: list[cProfile.Profile] = []
        self.lock = threading.Lock()

    def _profile(self) -> cProfile.Profile:
        profile = getattr(self.local, "profile", None)
        if profile is None:
            profile = self.local.profile = cProfile.Profile()
            with self.lock:
                self.profiles.append(profile)
        return profile

    def __call__(self, environ, start_response):
        profile = self._profile()
        profile.enable()
        try:
            # The body is read here, inside the profile, as waitress would read it.
            return [b"".join(self.app(environ, start_response))]
        finally:
            profile.disable()

    def dump(self, path: str) -> None:
        with self.lock:
            profiles = list(self.profiles)
        if not profiles:
            return
        stats = pstats.Stats(profiles[0])
        for profile in profiles[1:]:
            stats.add(profile)
        stats.dump_stats(path)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("port", type=int)
    parser.add_argument("stats_file")
    parser.add_argument("--processes", type=int, default=1)
    args = parser.parse_args(argv)

    from loko import create_app
    from loko.cli import limit_malloc_arenas
    from loko.database import start_checkpointer
    from loko.extensions import db
    from loko.serving import make_server

    app = create_app()
    app.config["LOKO_PROCESSES"] = args.processes
    profiled = ProfiledApp(app)
    limit_malloc_arenas()
    listener = socket.create_server(("127.0.0.1", args.port), backlog=1024)
    threads = app.config["LOKO_THREADS"]

    def serve(stats_file):
        def stop(_signum, _frame):
            profiled.dump(stats_file)
            os._exit(0)

        signal.signal(signal.SIGTERM, stop)
        with app.app_context():
            start_checkpointer(db.engine, args.processes > 1)
        make_server(profiled, sockets=[listener], threads=threads, ident="loko", backlog=1024).run()

    if args.processes == 1:
        serve(args.stats_file)
        return 0
    with app.app_context():
        db.engine.dispose()
    children = []
    for _ in range(args.processes):
        pid = os.fork()
        if pid == 0:
            serve(f"{args.stats_file}.{os.getpid()}")
            os._exit(0)
        children.append(pid)

    def stop_children(_signum, _frame):
        for child in children:
            os.kill(child, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop_children)
    for child in children:
        os.waitpid(child, 0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
