from django.apps import AppConfig


class OwnersConfig(AppConfig):
    name = "dogcase.owners"
    label = "owners"
    verbose_name = "The owner's portal"
    default_auto_field = "django.db.models.BigAutoField"
