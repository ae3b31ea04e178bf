from django.apps import AppConfig


class ProofsConfig(AppConfig):
    name = "dogcase.proofs"
    label = "proofs"
    verbose_name = "Proof of the conditions of registration"
