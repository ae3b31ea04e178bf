from django.apps import AppConfig


class ReportsConfig(AppConfig):
    name = "dogcase.reports"
    label = "reports"
    verbose_name = "Reports"
