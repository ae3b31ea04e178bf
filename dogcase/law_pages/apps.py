from django.apps import AppConfig


class LawPagesConfig(AppConfig):
    name = "dogcase.law_pages"
    label = "law_pages"
    verbose_name = "Law pages"
