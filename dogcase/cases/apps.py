from django.apps import AppConfig


class CasesConfig(AppConfig):
    name = "dogcase.cases"
    label = "cases"
    verbose_name = "Cases"
