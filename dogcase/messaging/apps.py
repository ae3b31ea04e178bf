from django.apps import AppConfig


class MessagingConfig(AppConfig):
    name = "dogcase.messaging"
    label = "messaging"
    verbose_name = "Messages"

    def ready(self) -> None:
        # deploy checks; the acts' messages; the jobs, which answer the requests to send a message
        from dogcase.messaging import checks, signals, tasks  # noqa: F401
