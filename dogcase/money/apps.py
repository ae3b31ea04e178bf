from django.apps import AppConfig


class MoneyConfig(AppConfig):
    name = "dogcase.money"
    label = "money"
    verbose_name = "Fees, charges and payments"
