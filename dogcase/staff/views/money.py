"""The money acts of a case, each from its form on the case page (staff/money_panel.py): a payment with its
receipt, a refund, a waiver by council resolution, the cancellation of a charge recorded in error, an actual cost,
and a statement of charges. Each view checks the reader's city and role, calls the act (dogcase/money) once per
form (its one-time key), and shows the form again with the act's message beside the field it names."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from dogcase.cases import acts
from dogcase.cases.act_forms import new_form_token
from dogcase.cases.guards import require_writer, staff_required
from dogcase.cases.models import Case
from dogcase.cases.pages import city_names, installed, sentence
from dogcase.money import charging, payments
from dogcase.money.ledger import account, money
from dogcase.staff import money_panel, onetime
from dogcase.staff.formvalues import FieldProblem, date_value
from dogcase.staff.present import humanize
from dogcase.staff.views.cases import case_of_user

# The act's name for a field, where the form calls it otherwise.
FIELD_OF = {"cost": {"charge": "cost"}}


def _pk(raw: str) -> int | None:
    return int(raw) if raw.isdecimal() else None


# ------------------------------------------------------------------------------------------------ the acts
# Each records its act and says what it recorded.


def _payment(case: Case, v: dict[str, str], user, now) -> str:
    entry = payments.record_payment(
        case,
        amount=v["amount"],
        method=v["method"],
        reference=v["reference"],
        paid_by=v["paid_by"],
        actor=user,
        at=now,
    )
    return f"Payment of {money(entry.amount)} recorded; receipt No. {entry.receipt.number} issued."


def _refund(case: Case, v: dict[str, str], user, now) -> str:
    entry = payments.refund(
        case,
        _pk(v["payment"]),
        amount=v["amount"],
        reason=v["reason"],
        reference=v["reference"],
        actor=user,
        at=now,
    )
    return f"Refund of {money(entry.amount)} recorded."


def _waiver(case: Case, v: dict[str, str], user, now) -> str:
    adopted_on = date_value(v, "adopted_on")
    charge_id = v["charge"]
    if charge_id and _pk(charge_id) is None:
        raise FieldProblem("charge", "Choose a charge of this case, or none.")
    entry = payments.waive(
        case,
        amount=v["amount"],
        resolution=v["resolution"],
        adopted_on=adopted_on,
        charge_id=_pk(charge_id),
        actor=user,
        at=now,
    )
    return f"Waiver of {money(entry.amount)} by council resolution {entry.resolution} recorded."


def _cancel(case: Case, v: dict[str, str], user, now) -> str:
    entry = payments.cancel_charge(case, _pk(v["charge"]), reason=v["reason"], actor=user, at=now)
    return f"Charge cancelled: {entry.charge.label}, {money(entry.amount)}."


def _cost(case: Case, v: dict[str, str], user, now) -> str:
    seq, _, charge_id = v["cost"].partition(":")
    charge = charging.enter_cost(case, charge_id, seq, amount=v["amount"], note=v["note"], actor=user, at=now)
    return f"Charged: {charge.label}, {money(charge.amount)}."


def _statement(case: Case, v: dict[str, str], user, now) -> str:
    doc = payments.issue_statement(case, actor=user, at=now)
    return f"Statement of charges No. {doc.number} issued; it is listed under the documents issued."


ACTS: dict[str, Callable[[Case, dict[str, str], Any, dt.datetime], str]] = {
    "payment": _payment,
    "refund": _refund,
    "waiver": _waiver,
    "cancel": _cancel,
    "cost": _cost,
    "statement": _statement,
}


# ------------------------------------------------------------------------------------------------ the views


def _money_form(request, number: str, kind: str):
    """The shared GET and POST of one money form: GET shows it alone; POST records the act once, or shows the
    form again with what was typed and the act's message beside its field (nothing was recorded)."""
    user = request.user
    case = case_of_user(user, number)
    require_writer(user)
    if not money_panel.may(kind, user):
        raise PermissionDenied("Your role may not record this.")
    j = installed(case.jurisdiction)
    if j is None:
        raise PermissionDenied("This city's law is not installed here: nothing can be charged under it.")
    now = timezone.now()
    here = reverse("staff:case", args=[case.number]) + "#money"
    names = [f.name for f in money_panel.FORMS[kind]["fields"]]
    values: dict[str, str] | None = None
    errors: dict[str, str] = {}
    general: list[str] = []
    token = new_form_token()
    status = 200
    if request.method == "POST":
        token = onetime.key_of(request) or token
        done = onetime.used(token)
        if done is not None:
            return onetime.show(request, done, user)
        values = {name: (request.POST.get(name) or "").strip() for name in names}
        status = 400
        try:
            with transaction.atomic():
                onetime.claim(token, user=user, form=f"money_{kind}")
                said = ACTS[kind](case, values, user, now)
                onetime.recorded(token, label=said, url=here)
        except onetime.AlreadyRecorded as exc:
            return onetime.show(request, exc.claim, user)
        except FieldProblem as problem:
            errors[problem.field] = problem.message
        except acts.InvalidInput as exc:
            field = FIELD_OF.get(kind, {}).get(exc.field, exc.field)
            if field in names:
                errors[field] = sentence(exc.rule)
            else:
                general.append(sentence(f"{humanize(exc.field)}: {exc.rule}"))
        except PermissionError as exc:
            raise PermissionDenied(str(exc)) from None
        else:
            balance = account(case, money_panel.day_of(now, j)).balance
            messages.success(request, f"{said} The balance is now {money(balance)}.")
            return redirect(here)
    m = money_panel.Money.read(case, j, now)
    context = {
        "case": case,
        "city": city_names([case.jurisdiction])[case.jurisdiction],
        "balance": money(m.acct.balance),
        "form": money_panel.build_form(kind, m, values=values, errors=errors, general=general, token=token),
    }
    return render(request, "staff/money_form.html", context, status=status)


@staff_required
@require_http_methods(["GET", "POST"])
def record_payment(request, number: str):
    return _money_form(request, number, "payment")


@staff_required
@require_http_methods(["GET", "POST"])
def refund(request, number: str):
    return _money_form(request, number, "refund")


@staff_required
@require_http_methods(["GET", "POST"])
def waive(request, number: str):
    return _money_form(request, number, "waiver")


@staff_required
@require_http_methods(["GET", "POST"])
def cancel_charge(request, number: str):
    return _money_form(request, number, "cancel")


@staff_required
@require_http_methods(["GET", "POST"])
def enter_cost(request, number: str):
    return _money_form(request, number, "cost")


@staff_required
@require_http_methods(["GET", "POST"])
def issue_statement(request, number: str):
    return _money_form(request, number, "statement")
