"""Staff revoke and re-issue an owner's case access code from the case page; the new code is shown once, on a
printable slip."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from dogcase.cases.guards import in_cities, staff_required
from dogcase.cases.models import Case
from dogcase.owners import codes
from dogcase.owners.models import CaseAccessCode
from dogcase.owners.urls_util import portal_url


@staff_required
@require_POST
def issue(request, number: str, person_id: int):
    case = in_cities(Case.objects.select_related("dog"), request.user, number=number)
    codes.require_issuer(request.user, case)
    person = next((p for p in codes.owners_of(case) if p.pk == person_id), None)
    if person is None:
        return redirect("staff:case", number=case.number)
    _row, code = codes.issue_code(case, person, actor=request.user)
    return render(
        request,
        "owners/staff_code_slip.html",
        {"case": case, "person": person, "code": code, "portal": portal_url()},
    )


@staff_required
@require_POST
def revoke(request, number: str, pk: int):
    case = in_cities(Case.objects.all(), request.user, number=number)
    codes.require_issuer(request.user, case)
    row = get_object_or_404(CaseAccessCode.objects.select_related("person"), pk=pk, case=case)
    codes.revoke_code(row, actor=request.user)
    messages.success(request, f"The portal code of {row.person.full_name} is revoked; it no longer signs in.")
    return redirect("staff:case", number=case.number)
