from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "dogcase.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from dogcase.accounts import checks  # noqa: F401  (registers the deploy checks)
        from dogcase.accounts.middleware import start_idle_clock

        user_logged_in.connect(start_idle_clock, dispatch_uid="dogcase-start-idle-clock")
