from django import template

from dogcase.messaging.models import Message

register = template.Library()

SHOWN = 20


@register.inclusion_tag("staff/includes/_case_messages_panel.html")
def case_messages(case):
    """The case's messages, newest first, and the owners told nothing because they have no e-mail address."""
    rows = list(case.messages.select_related("paper_task").order_by("-created_at", "-id")[: SHOWN + 1])
    no_address = sorted(
        {m.recipient_name for m in rows if m.status == Message.Status.NOT_SENT and m.person_id is not None}
    )
    return {"messages": rows[:SHOWN], "more": len(rows) > SHOWN, "no_address": no_address, "case": case}
