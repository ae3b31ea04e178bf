"""Deployment checks of the accounts app (run by `manage.py check --deploy`)."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def client_address_behind_proxy(app_configs, **kwargs):
    """Behind a reverse proxy every request comes from the proxy's address: without the header that carries
    the client's, the failed-login count per address is one count for everybody, and a handful of bad
    passwords locks every user out (dogcase/accounts/throttle.py)."""
    if settings.SECURE_PROXY_SSL_HEADER and not settings.DOGCASE_CLIENT_IP_HEADER:
        return [
            Warning(
                "DOGCASE_CLIENT_IP_HEADER is not set although the site runs behind a proxy "
                "(SECURE_PROXY_SSL=True): every client would share the proxy's address, and the failed-login "
                "lock per address would lock out everyone at once.",
                hint="Set DOGCASE_CLIENT_IP_HEADER=X-Forwarded-For (the proxy appends the client's address; "
                "docs/deploy.md).",
                id="dogcase.W001",
            )
        ]
    return []
