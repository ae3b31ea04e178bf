"""The City settings page: what a city's documents print beside its law pack (its offices' addresses and
telephones, its letterhead's), filled in by the city's administrator; each change audited in the city's chain
(dogcase.documents.offices)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from dogcase.accounts import manage
from dogcase.cases import acts
from dogcase.cases.access import cities_of, staff_roles
from dogcase.cases.pages import now_and_today, sentence
from dogcase.documents import offices
from dogcase.law import library
from dogcase.money import schedule
from dogcase.money.ledger import money
from dogcase.staff import city_choices, fee_schedule
from dogcase.staff.formvalues import FieldProblem, date_value


def _city(request, admin) -> str:
    """The city the page is about: one of the administrator's (404 for any other)."""
    mine = sorted(cities_of(admin))
    city = request.POST.get("city") or request.GET.get("city") or mine[0]
    if city not in mine:
        raise Http404("No such city among yours.")
    return city


@login_required
def city_settings(request):
    """The city's own facts its documents print (its offices' addresses and telephones, its letterhead's),
    changed by its administrator; each change audited in the city's chain (dogcase.documents.offices); and its
    fee schedule (fee_rate)."""
    admin = request.user
    manage.require_user_administrator(admin)
    city = _city(request, admin)
    errors: dict[str, str] = {}
    values: dict[str, str] = {}
    status = 200
    rows = offices.offices_of(city)
    choices = city_choices.rows(city)
    if request.method == "POST":
        values = {
            k: v
            for k, v in request.POST.items()
            if k.endswith(("-address", "-telephone")) or k.startswith("setting-")
        }
        changed = []
        try:
            with transaction.atomic():
                # the choices the law leaves to the city: each checked before anything is saved
                chosen = []
                for choice in choices:
                    raw = values.get(choice.field)
                    if raw is None or (raw == "" and choice.value is None):
                        continue  # not on the form, or still not chosen
                    chosen.append((choice, city_choices.clean(choice, raw)))
                now = timezone.now()
                for choice, value in chosen:
                    if city_choices.choose(city, choice, value, actor=admin, at=now):
                        changed.append(choice.label)
                for row in rows:
                    editable = {"address", "telephone"} - row.from_pack
                    if not editable:
                        continue
                    given = {
                        w: values.get(f"{row.office}-{w}", getattr(row, w)) for w in ("address", "telephone")
                    }
                    if offices.supply_office(city, row.office, actor=admin, **given):
                        changed.append(row.name)
        except (offices.OfficeProblem, city_choices.SettingProblem) as problem:
            errors[problem.field] = problem.message
            status = 400
        else:
            if changed:
                messages.success(
                    request,
                    f"Saved: {', '.join(changed)}. Documents issued from now on print what is saved here; an "
                    "open case's deadlines are worked out again with the city's choices within the hour, or at "
                    "its next step.",
                )
            else:
                messages.info(request, "Nothing had changed.")
            return redirect(f"{reverse('staff:city_settings')}?city={city}")
    return _page(
        request, admin, city, rows=rows, choices=choices, values=values, errors=errors, status=status
    )


def _page(
    request,
    admin,
    city: str,
    *,
    rows=None,
    choices=None,
    values: dict[str, str] | None = None,
    errors: dict[str, str] | None = None,
    status: int = 200,
    fee: dict | None = None,
):
    """The page, with what a form sent shown again beside its errors (`fee`: the fee form's charge, values and
    errors, by the act's field names)."""
    rows = offices.offices_of(city) if rows is None else rows
    choices = city_choices.rows(city) if choices is None else choices
    values = values or {}
    errors = dict(errors or {})
    fee = fee or {}
    for name, message in fee.get("errors", {}).items():
        # the page's list of problems links to the field (or to the section, for a problem of the charge)
        errors["fees" if name == "charge" else fee_schedule.field_id(fee["charge"], name)] = message
    _, today = now_and_today()
    mine = sorted(cities_of(admin))
    forms = [
        {
            "row": row,
            "fields": [
                {
                    "id": f"{row.office}-{what}",
                    "label": what.capitalize(),
                    "value": values.get(f"{row.office}-{what}", getattr(row, what)),
                    "error": errors.get(f"{row.office}-{what}"),
                    "from_pack": what in row.from_pack,
                    "type": "tel" if what == "telephone" else "text",
                    "maxlength": offices.LIMITS[what],
                    "autocomplete": "tel" if what == "telephone" else "street-address",
                }
                for what in ("address", "telephone")
            ],
        }
        for row in rows
    ]
    context = {
        "city": city,
        "city_label": manage.city_name(city),
        "cities": [(c, manage.city_name(c)) for c in mine],
        "forms": forms,
        "values": values,
        "errors": errors,
        "history": offices.history(city, also=(city_choices.EVENT, fee_schedule.EVENT)),
        "fees": fee_schedule.rows(
            city,
            today,
            charge=fee.get("charge", ""),
            values=fee.get("values"),
            errors=fee.get("errors"),
            may_set=bool(staff_roles(admin) & schedule.RATE_ROLES),
        ),
        "choices": [
            {
                "row": c,
                "value": values.get(c.field, _form_value(c)),
                "error": errors.get(c.field),
            }
            for c in choices
        ],
        "missing": sum(len(r.missing) for r in rows),
        "may_add_cities": manage.may_add_cities(admin),
    }
    return render(request, "staff/city_settings.html", context, status=status)


@login_required
@require_POST
def fee_rate(request):
    """A new amount of the city's fee schedule (money/schedule.py: set_rate), by its administrator: checked
    against the law's cap; on a problem, the page again with the message beside the field and what was typed."""
    admin = request.user
    manage.require_user_administrator(admin)
    city = _city(request, admin)
    if not staff_roles(admin) & schedule.RATE_ROLES:
        raise PermissionDenied("Only the city's administrator enters the fee schedule.")
    charge = request.POST.get("charge", "")
    values = {name: (request.POST.get(name) or "").strip() for name in fee_schedule.FIELDS}
    try:
        rate = schedule.set_rate(
            city,
            charge,
            amount=values["amount"],
            effective_from=date_value(values, "effective_from"),
            resolution=values["resolution"],
            adopted_on=date_value(values, "adopted_on"),
            actor=admin,
            at=timezone.now(),
        )
    except FieldProblem as problem:
        errors = {problem.field: problem.message}
    except acts.InvalidInput as exc:
        field = exc.field if exc.field in fee_schedule.FIELDS else "charge"
        errors = {field: sentence(exc.rule)}
    except PermissionError as exc:
        raise PermissionDenied(str(exc)) from None
    else:
        c = library().get(city).charges[charge]
        messages.success(
            request,
            f"Saved: {c.label}, {money(rate.amount)}{' a day' if c.per == 'day' else ''} from "
            f"{rate.effective_from:%-d %B %Y} (resolution {rate.resolution}). Acts from that day on charge it.",
        )
        return redirect(f"{reverse('staff:city_settings')}?city={city}#fees")
    fee = {"charge": charge, "values": values, "errors": errors}
    return _page(request, admin, city, fee=fee, status=400)


def _form_value(row) -> str:
    if row.value is None:
        return ""
    if row.kind == "yes_no":
        return city_choices.YES if row.value else city_choices.NO
    return str(row.value)


@login_required
def city_new(request):
    """Add a city or county with no ordinance of its own (the deployment's administrator: a superuser)."""
    from django.core.exceptions import PermissionDenied

    from dogcase.staff import city_admin

    admin = request.user
    if not manage.may_add_cities(admin):
        raise PermissionDenied(
            "Only the deployment's administrator (a superuser, or an administrator of every city it serves) adds "
            "a city or county."
        )
    holidays = city_admin.optional_holidays()
    values = {"kind": "city", **{f"observes-{h}": "" for h, _ in holidays}}
    errors: dict[str, str] = {}
    status = 200
    if request.method == "POST":
        values = {k: request.POST.get(k, "").strip() for k in request.POST if k != "csrfmiddlewaretoken"}
        try:
            new = city_admin.add_city(
                actor=admin,
                name=values.get("name", ""),
                kind="county" if values.get("kind") == "county" else "city",
                case_prefix=values.get("case_prefix", ""),
                observes={h: values.get(f"observes-{h}", "") for h, _ in holidays},
                authority=values.get("authority", ""),
                address=values.get("address", ""),
                telephone=values.get("telephone", ""),
            )
        except city_admin.CityProblem as problem:
            errors[problem.field] = problem.message
            status = 400
        else:
            messages.success(
                request,
                f"Added {new.name}: its law is the state's (Minn. Stat. 347.565); case numbers start "
                f"{new.case_prefix}. Check its offices below, then give its staff access on the Users page.",
            )
            return redirect(f"{reverse('staff:city_settings')}?city={new.id}")
    rows = [(h, name, values.get(f"observes-{h}", "")) for h, name in holidays]
    context = {"values": values, "errors": errors, "holidays": rows}
    return render(request, "staff/city_new.html", context, status=status)
