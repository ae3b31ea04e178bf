"""Staff print an owner's case access code again (the same code), replace it on purpose (a new code, with a
reason and a confirmation: the old one stops signing in), or revoke it, from the case page; the code is shown on
a printable slip."""

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
    """A first code, the owner's code printed again, or — confirmed, with a reason — a new code replacing it."""
    case = in_cities(Case.objects.select_related("dog"), request.user, number=number)
    codes.require_issuer(request.user, case)
    person = next((p for p in codes.owners_of(case) if p.pk == person_id), None)
    if person is None:
        return redirect("staff:case", number=case.number)
    held = (
        CaseAccessCode.objects.filter(case=case, person=person, revoked_at__isnull=True)
        .order_by("-created_at", "-id")
        .first()
    )
    live = held is not None
    replace = request.POST.get("replace") == "1"
    if live and not replace:
        row, code = codes.code_for_notice(case, person, actor=request.user)
        replaced = row.pk != held.pk  # a code issued before codes were derived cannot be printed again
        if not replaced:
            codes.record_printed(row, actor=request.user)
    else:
        reason = " ".join((request.POST.get("reason") or "").split())[:300]
        if live and (request.POST.get("confirm") != "1" or not reason):
            messages.error(
                request,
                "To replace the owner's code, give the reason and tick the confirmation: the code on every "
                "letter the owner already has stops working.",
            )
            return redirect("staff:case", number=case.number)
        _row, code = codes.issue_code(case, person, actor=request.user, reason=reason or "")
        replaced = live
    return render(
        request,
        "owners/staff_code_slip.html",
        {"case": case, "person": person, "code": code, "portal": portal_url(), "replaced": replaced},
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
