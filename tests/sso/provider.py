"""A real OpenID Provider (oidc-provider, from the npm registry) on 127.0.0.1 for the
sign-in tests, and a person signing in at its login form over HTTP.

``make browser-deps`` installs oidc-provider into tests/sso/node_modules; without Node or
the package the tests that need the provider skip, saying why."""

import json
import re
import shutil
import socket
import subprocess
from contextlib import contextmanager
from html import unescape
from pathlib import Path
from urllib.parse import urljoin

import httpx

HERE = Path(__file__).parent
HARNESS = HERE / "provider.mjs"
PACKAGE = HERE / "node_modules" / "oidc-provider" / "package.json"
CLIENT_SECRET = "loko-test-secret"


def missing() -> str | None:
    if shutil.which("node") is None:
        return "OpenID provider tests skipped: Node.js is not installed"
    if not PACKAGE.exists():
        return (
            f"OpenID provider tests skipped: oidc-provider is not installed at {PACKAGE.parent} "
            "(make browser-deps installs it)"
        )
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def running_provider(redirect_uris: list[str]):
    """Start the provider with every client allowed ``redirect_uris``; yields its issuer."""
    port = free_port()
    process = subprocess.Popen(
        ["node", str(HARNESS)],
        cwd=HERE,
        env={
            "PATH": "/usr/bin:/bin:/usr/local/bin",
            "OIDC_PORT": str(port),
            "OIDC_REDIRECT_URIS": json.dumps(redirect_uris),
        },
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        line = process.stdout.readline()
        if not line.startswith("ready "):
            raise RuntimeError(f"the OpenID provider did not start: {line!r}")
        issuer = line.split()[1]
        yield issuer
    finally:
        process.terminate()
        process.wait(timeout=10)
        process.stdout.close()


def provider_entry(issuer: str, name: str, client_id: str = "loko", **settings) -> dict:
    return {
        "name": name,
        "issuer": issuer,
        "client_id": client_id,
        "client_secret": CLIENT_SECRET,
        "allow_private": True,
        **settings,
    }


def sign_in_at_provider(authorization_url: str, login: str, callback_prefix: str) -> str:
    """Follow ``authorization_url`` as a browser would, sign in as ``login`` at the provider's
    form, and return the URL the provider sends the browser back to (the callback)."""
    with httpx.Client(follow_redirects=False, timeout=10, trust_env=False) as browser:
        url, method, data = authorization_url, "GET", None
        for _ in range(10):
            response = browser.request(method, url, data=data)
            if response.is_redirect:
                location = urljoin(url, response.headers["location"])
                if location.startswith(callback_prefix):
                    return location
                url, method, data = location, "GET", None
                continue
            form = re.search(r'<form[^>]*action="([^"]+)"', response.text)
            if response.status_code != 200 or form is None:
                raise AssertionError(
                    f"unexpected answer from the provider: {response.status_code} {response.text[:300]}"
                )
            url = urljoin(url, unescape(form.group(1)))
            method, data = "POST", {"prompt": "login", "login": login, "password": "any"}
        raise AssertionError("the provider never sent the browser back")
