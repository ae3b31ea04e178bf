"""The proof panel of the staff case page and the dashboard's count of proofs waiting (one line each in the
staff templates)."""

from django import template

from dogcase.proofs import services

register = template.Library()

DASHBOARD_OLDEST = 5


@register.inclusion_tag("proofs/_case_panel.html", takes_context=True)
def case_proofs_panel(context, case):
    user = context["request"].user
    return {"case": case, "rows": services.standing(case), "may_review": services.may_review(user)}


@register.inclusion_tag("proofs/_dashboard.html", takes_context=True)
def proofs_waiting(context):
    from dogcase.proofs.views import waiting

    rows = waiting(context["request"].user)
    return {"count": rows.count(), "oldest": list(rows[:DASHBOARD_OLDEST])}
