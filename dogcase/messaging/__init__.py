"""Messages to owners and staff (issue 9, item 4): every message is a row on its case (what, to whom, when,
its delivery outcome), written in the recipient's language and sent by e-mail from a background job.

    notify(case, kind, to="owners"|"staff", context={...}, key="...")

queues the message(s) when the caller's transaction commits; `key` makes it idempotent: the same key gives the
same rows, sent once. The kinds and their context: dogcase/messaging/compose.py. For proof reviewed:

    notify(case, "proof_rejected", to="owners", key=f"proof:{pk}:rejected",
           context={"condition": "...", "reason": "...", "citation": "..."})
"""

from __future__ import annotations

from typing import Any


def notify(case, kind: str, *, to: str = "owners", context: dict[str, Any] | None = None, key: str):
    from dogcase.messaging.outbox import notify as _notify

    return _notify(case, kind, to=to, context=context or {}, key=key)


__all__ = ["notify"]
