from django.apps import AppConfig


class ProofsConfig(AppConfig):
    name = "dogcase.proofs"
    label = "proofs"
    verbose_name = "Proof of the conditions of registration"

    def ready(self) -> None:
        from dogcase.cases.acts.steps import count_accepted_proofs_with
        from dogcase.proofs.counting import with_accepted_proofs

        # A step's act reads the accepted proofs through this rule (dogcase.cases.acts.steps).
        count_accepted_proofs_with(with_accepted_proofs)
