"""`{% service_section case %}`: the service panels of a case's issued documents, on the case page."""

from __future__ import annotations

from django import template

from dogcase.cases.guards import is_read_only, may_record
from dogcase.cases.pages import now_and_today, numbered_urls

register = template.Library()

# a case has a handful of documents; the page shows at most this many
MAX_DOCUMENTS = 50


@register.inclusion_tag("documents/_service_section.html", takes_context=True)
def service_section(context, case):
    """The panels read in a fixed number of queries whatever the number of documents and attempts: the
    documents (the page's own, `case_documents`, when it read them), their attempts with who served them and
    their proofs, and the law's state of the case once (the page's own, `law_state`, when it has it)."""
    from django.db.models import Q

    from dogcase.cases import acts
    from dogcase.documents import serving
    from dogcase.documents.models import IssuedDocument
    from dogcase.documents.service_models import ServiceAttempt
    from dogcase.documents.service_views import panel
    from dogcase.law import library

    user = context["request"].user
    _now, today = now_and_today()
    # the documents served (or to be served): each version with attempts, and the latest version of each
    # document the law has it served (a corrected notice is served again)
    issued = context.get("case_documents")
    if issued is None:
        documents = list(
            IssuedDocument.objects.filter(case=case)
            .filter(Q(service_attempts__isnull=False) | Q(replaced_by__isnull=True))
            .distinct()
            .order_by("issued_at", "id")[:MAX_DOCUMENTS]
        )
    else:
        documents = issued  # every document of the case, oldest first, each marked `superseded`
    attempts: dict[int, list[ServiceAttempt]] = {d.pk: [] for d in documents}
    if documents:
        # the panels read only the ids of the events an attempt took (not the events): no join of them
        rows = (
            ServiceAttempt.objects.filter(document__in=list(attempts))
            .select_related("served_by")
            .prefetch_related("proofs")
            .order_by("document_id", "number")
        )
        for a in rows:
            attempts[a.document_id].append(a)
    if issued is not None:
        documents = [d for d in documents if attempts[d.pk] or not d.superseded][:MAX_DOCUMENTS]
    j = library().jurisdictions.get(case.jurisdiction)
    documents = [d for d in documents if attempts[d.pk] or (j is not None and serving.serves(j, d, today))]
    state = None
    if any(d.step for d in documents):
        state = context.get("law_state")
        if state is None:
            state = acts.case_state(case)
    for d in documents:
        d.case = case  # the page's case, not one read again for each document
    rules: dict = {}  # the rules of service worked out once for the page (documents of one step share them)
    attempt_url = numbered_urls("documents:service_attempt")
    return {
        "panels": [
            panel(d, today, attempts=attempts[d.pk], state=state, rules=rules, attempt_url=attempt_url)
            for d in documents
        ],
        "may_act": may_record(user) and not is_read_only(user),
        "city": case.jurisdiction,
    }
