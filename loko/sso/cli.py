"""``loko sso check [NAME]``: test the configuration of the identity providers."""

import click
from flask import current_app
from flask.cli import with_appcontext

from loko.sso.setup import REGISTRY


@click.group("sso")
def sso_group():
    """Single sign-on with OpenID Connect."""


@sso_group.command("check")
@with_appcontext
@click.argument("name", required=False)
@click.option(
    "--site",
    default=None,
    help="The address users open Loko at (default: http://LOKO_HOST:LOKO_PORT); the redirect "
    "URI is <site>/auth/oidc/<name>/callback.",
)
def check_command(name, site):
    """Read each provider's discovery and keys and print a dry sign-in URL (nothing is
    stored). Exits with 1 when a provider fails, or none is configured."""
    from loko.sso.client import fresh_app
    from loko.sso.service import check_provider

    providers = current_app.extensions[REGISTRY]["providers"]
    if name is not None and name not in providers:
        known = ", ".join(providers) or "none"
        raise click.ClickException(f"No identity provider is named {name!r} (configured: {known}).")
    if not providers:
        raise click.ClickException("No identity provider is configured: set LOKO_OIDC_PROVIDERS.")
    site = (site or f"http://{current_app.config['LOKO_HOST']}:{current_app.config['LOKO_PORT']}").rstrip("/")
    failed = False
    for provider in [providers[name]] if name else providers.values():
        report = check_provider(
            provider, fresh_app(current_app, provider), f"{site}/auth/oidc/{provider.name}/callback"
        )
        for line in report.lines:
            click.echo(line)
        failed = failed or not report.ok
    if failed:
        raise SystemExit(1)
