from django.apps import AppConfig


class ImportsConfig(AppConfig):
    name = "dogcase.imports"
    label = "imports"
    verbose_name = "Records brought in"
