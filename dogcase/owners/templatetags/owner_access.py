"""The case page's panel of the owners' portal codes (one line in staff/case_detail.html)."""

from __future__ import annotations

from django import template

from dogcase.cases.access import staff_roles
from dogcase.owners import codes
from dogcase.owners.models import CaseAccessCode

register = template.Library()


@register.inclusion_tag("owners/staff_case_access.html", takes_context=True)
def owner_access_panel(context, case):
    user = context["request"].user
    live = {
        c.person_id: c
        for c in CaseAccessCode.objects.filter(case=case, revoked_at__isnull=True).order_by("created_at")
    }
    rows = [{"person": p, "code": live.get(p.pk)} for p in codes.owners_of(case)]
    return {
        "case": case,
        "rows": rows,
        "may_issue": bool(staff_roles(user) & codes.ISSUERS),
        "csrf_token": context.get("csrf_token"),
    }


FILINGS_DAYS = 14


@register.inclusion_tag("staff/includes/dashboard_portal.html", takes_context=True)
def owner_filings(context):
    """The dashboard's list of what owners filed from the portal lately, in the user's cities: each filing said
    as what the owner did ("The owner asked for a hearing"), as the case's history says it, not as the step the
    city takes on it."""
    import datetime as dt

    from django.utils import timezone

    from dogcase.cases.access import cities_of
    from dogcase.cases.models import Event
    from dogcase.cases.outcomes import OWNER_SUBJECT, event_outcome
    from dogcase.cases.pages import installed

    user = context["request"].user
    since = timezone.now() - dt.timedelta(days=FILINGS_DAYS)
    filings = list(
        Event.objects.filter(
            kind=Event.Kind.STEP, actor_roles="owner", at__gte=since, jurisdiction__in=cities_of(user)
        )
        .select_related("case", "case__dog")
        .order_by("-at")[:10]
    )
    for e in filings:
        what = event_outcome(e, installed(e.jurisdiction), case=e.case)["what"]
        # a sentence the law writes of the owner; else (no pack sentence: one made from the step's label
        # would name the city) the step's label after the owner's name, as the filing was named before
        e.what = what if what.startswith(OWNER_SUBJECT) else None
    return {"filings": filings, "days": FILINGS_DAYS}
