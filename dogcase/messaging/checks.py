"""Deployment checks of the messages (run by `manage.py check --deploy`)."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register


@register(Tags.security, deploy=True)
def mail_server_configured(app_configs, **kwargs):
    """Without an SMTP server every message to an owner or to staff fails and turns into a task to serve it on
    paper; without a sender address the mail goes out from dogcase@localhost, which servers refuse."""
    problems = []
    if not settings.DOGCASE_EMAIL_HOST:
        problems.append(
            Warning(
                "EMAIL_HOST is not set: no message (reminders, documents issued, hearings) can be sent.",
                hint="Set EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD and EMAIL_USE_TLS "
                "(docs/deploy.md, 'Messages').",
                id="dogcase.W101",
            )
        )
    if settings.DEFAULT_FROM_EMAIL.endswith("@localhost"):
        problems.append(
            Warning(
                "DEFAULT_FROM_EMAIL is not set: messages would be sent from dogcase@localhost.",
                hint="Set DEFAULT_FROM_EMAIL to the city's address, e.g. animals@battlelake.example "
                "(docs/deploy.md, 'Messages').",
                id="dogcase.W102",
            )
        )
    if not settings.DOGCASE_SITE_URL:
        problems.append(
            Error(
                "DOGCASE_SITE_URL is not set: every link dogcase prints or sends (the owner's portal and code on a "
                "notice, the verification link in a document's footer, the links in e-mails) needs the site's "
                "address.",
                hint="Set DOGCASE_SITE_URL=https://dogcase.example.org (docs/deploy.md).",
                id="dogcase.E103",
            )
        )
    return problems
