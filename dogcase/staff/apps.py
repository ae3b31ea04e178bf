from django.apps import AppConfig


class StaffConfig(AppConfig):
    name = "dogcase.staff"
    label = "staff"
    verbose_name = "Staff"
