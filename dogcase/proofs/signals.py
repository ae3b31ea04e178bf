"""Sent once a member of staff has accepted or rejected a proof (after the review is committed):
`proof_reviewed(sender=ProofSubmission, proof=<the row>, accepted=<bool>)`. The messages app connects it to
the owner's e-mail; this app does not send anything itself."""

from django.dispatch import Signal

proof_reviewed = Signal()
