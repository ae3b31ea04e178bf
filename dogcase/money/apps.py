from django.apps import AppConfig


class MoneyConfig(AppConfig):
    name = "dogcase.money"
    label = "money"
    verbose_name = "Fees, charges and payments"

    def ready(self) -> None:
        from dogcase.cases.acts.steps import charge_acts_with
        from dogcase.money.charging import charge_for_step, refuse_unpaid

        # every act reads what it costs the owner through these rules (dogcase.cases.acts.steps)
        charge_acts_with(refuse_unpaid, charge_for_step)
