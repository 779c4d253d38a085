"""What a started app does not hold until it is used: the migration tooling, the single
sign-on client, encryption, the fuzzy scorer, the OpenAPI builder, the outbound HTTP client,
the PostgreSQL driver (on SQLite), the password hasher, the language registry's data and
the pipeline commands load on first use."""

import os
import subprocess
import sys

LOADED_ON_FIRST_USE = (
    "alembic",
    "flask_migrate",
    "authlib",
    "requests",
    "cryptography",
    "rapidfuzz",
    "apispec",
    "httpx",
    "psycopg",
    "argon2",
    "langcodes",
    "loko.client.commands",
)

STARTED = """
import sys
from loko import create_app
app = create_app()
app.test_client().get("/api/health")
print(",".join(name for name in {names!r} if name in sys.modules))
"""


def test_a_started_app_has_not_loaded_what_it_loads_on_first_use(tmp_path):
    environment = {name: value for name, value in os.environ.items() if not name.startswith("LOKO_")}
    environment["LOKO_DATA_DIR"] = str(tmp_path)
    loaded = subprocess.run(
        [sys.executable, "-c", STARTED.format(names=LOADED_ON_FIRST_USE)],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout.strip()
    assert loaded == ""
