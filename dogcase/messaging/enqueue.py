"""The request to send a message (as soon as possible, or after a wait): a signal the background jobs
(dogcase.messaging.tasks) answer by enqueuing the send job, so that writing a message (outbox) and retrying
one (delivery) need not import the jobs that run them."""

from __future__ import annotations

from django.dispatch import Signal

# sent with message_id and run_after (None: as soon as the worker can); answered by dogcase.messaging.tasks,
# connected when the app is ready (dogcase.messaging.apps)
send_requested = Signal()


def enqueue_send(message_id: int, *, run_after=None) -> None:
    send_requested.send(sender=None, message_id=message_id, run_after=run_after)
