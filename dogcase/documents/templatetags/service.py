"""`{% service_section case %}`: the service panels of a case's issued documents, on the case page."""

from __future__ import annotations

from django import template

from dogcase.cases.guards import is_read_only, may_record
from dogcase.cases.pages import now_and_today

register = template.Library()

# a case has a handful of documents; the page shows at most this many
MAX_DOCUMENTS = 50


@register.inclusion_tag("documents/_service_section.html", takes_context=True)
def service_section(context, case):
    from django.db.models import Q

    from dogcase.documents import serving
    from dogcase.documents.models import IssuedDocument
    from dogcase.documents.service_views import panel
    from dogcase.law import library

    user = context["request"].user
    _now, today = now_and_today()
    # the documents served (or to be served): each version with attempts, and the latest version of each
    # document the law has it served (a corrected notice is served again)
    documents = list(
        IssuedDocument.objects.filter(case=case)
        .filter(Q(service_attempts__isnull=False) | Q(replaced_by__isnull=True))
        .distinct()
        .order_by("issued_at", "id")[:MAX_DOCUMENTS]
    )
    j = library().jurisdictions.get(case.jurisdiction)
    documents = [
        d for d in documents if d.service_attempts.exists() or (j is not None and serving.serves(j, d, today))
    ]
    return {
        "panels": [panel(d, today) for d in documents],
        "may_act": may_record(user) and not is_read_only(user),
        "city": case.jurisdiction,
    }
