"""The City settings page: what a city's documents print beside its law pack (its offices' addresses and
telephones, its letterhead's), filled in by the city's administrator; each change audited in the city's chain
(dogcase.documents.offices)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse

from dogcase.accounts import manage
from dogcase.cases.access import cities_of
from dogcase.documents import offices


@login_required
def city_settings(request):
    """The city's own facts its documents print (its offices' addresses and telephones, its letterhead's),
    changed by its administrator; each change audited in the city's chain (dogcase.documents.offices)."""
    admin = request.user
    manage.require_user_administrator(admin)
    mine = sorted(cities_of(admin))
    city = request.POST.get("city") or request.GET.get("city") or mine[0]
    if city not in mine:
        raise Http404("No such city among yours.")
    errors: dict[str, str] = {}
    values: dict[str, str] = {}
    status = 200
    rows = offices.offices_of(city)
    if request.method == "POST":
        values = {k: v for k, v in request.POST.items() if k.endswith(("-address", "-telephone"))}
        changed = []
        try:
            with transaction.atomic():
                for row in rows:
                    editable = {"address", "telephone"} - row.from_pack
                    if not editable:
                        continue
                    given = {
                        w: values.get(f"{row.office}-{w}", getattr(row, w)) for w in ("address", "telephone")
                    }
                    if offices.supply_office(city, row.office, actor=admin, **given):
                        changed.append(row.name)
        except offices.OfficeProblem as problem:
            errors[problem.field] = problem.message
            status = 400
        else:
            if changed:
                messages.success(
                    request, f"Saved: {', '.join(changed)}. Documents issued from now on print it."
                )
            else:
                messages.info(request, "Nothing had changed.")
            return redirect(f"{reverse('staff:city_settings')}?city={city}")
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
        "history": offices.history(city),
        "missing": sum(len(r.missing) for r in rows),
    }
    return render(request, "staff/city_settings.html", context, status=status)
