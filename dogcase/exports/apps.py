from django.apps import AppConfig


class ExportsConfig(AppConfig):
    name = "dogcase.exports"
    label = "exports"
    verbose_name = "Records taken out"
