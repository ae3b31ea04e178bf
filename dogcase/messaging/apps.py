from django.apps import AppConfig


class MessagingConfig(AppConfig):
    name = "dogcase.messaging"
    label = "messaging"
    verbose_name = "Messages"

    def ready(self) -> None:
        from dogcase.messaging import checks, signals  # noqa: F401  (deploy checks; the acts' messages)
