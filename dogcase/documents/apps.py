from django.apps import AppConfig


class DocumentsConfig(AppConfig):
    name = "dogcase.documents"
    label = "documents"
    verbose_name = "Documents"
