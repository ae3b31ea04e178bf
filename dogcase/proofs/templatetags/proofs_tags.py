"""The proof panel of the staff case page and the dashboard's count of proofs waiting (one line each in the
staff templates)."""

from django import template

from dogcase.proofs import services

register = template.Library()

DASHBOARD_OLDEST = 3


@register.inclusion_tag("proofs/_case_panel.html", takes_context=True)
def case_proofs_panel(context, case):
    user = context["request"].user
    # the case page's state of the case and its events
    rows = services.standing(case, state=context.get("law_state"), events=context.get("case_events"))
    return {"case": case, "rows": rows, "may_review": services.may_review(user)}


@register.inclusion_tag("proofs/_dashboard.html", takes_context=True)
def proofs_waiting(context):
    from dogcase.cases.access import staff_roles
    from dogcase.proofs.conditions import states
    from dogcase.proofs.views import proof_label, waiting

    user = context["request"].user
    rows = waiting(user)
    # counted once a request: the dashboard's counts above have it already
    count = context.get("proof_count")
    count = rows.count() if count is None else count
    # the clerk's dashboard lists proof to review (issue 10's dashboards per role); an animal control officer,
    # who may review too, gets one line with the count and the way to the queue
    if "city_clerk" not in staff_roles(user):
        return {"count": count, "line_only": True}
    proofs = list(rows.select_related("case__incident")[:DASHBOARD_OLDEST]) if count else []
    # the cases' states read together (their events, their cities' choices), not one case at a time
    read = states(p.case for p in proofs)
    oldest = [{"proof": p, "label": proof_label(p, read[p.case_id])[0]} for p in proofs]
    return {"count": count, "oldest": oldest}
