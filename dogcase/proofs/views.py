"""Staff review of proof: the queue of proofs waiting (the user's cities, oldest first), a proof's page with
its files, and the accept / reject forms — for the animal control officer and the city clerk only."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from dogcase.cases.access import cities_of
from dogcase.proofs import conditions as law
from dogcase.proofs import services
from dogcase.proofs.models import ProofFile, ProofSubmission
from dogcase.staff.guards import staff_required
from dogcase.staff.views.common import stored_response

PAGE_SIZE = 25


def waiting(user):
    """The proofs waiting for review in the user's cities, oldest first."""
    return (
        ProofSubmission.objects.filter(
            jurisdiction__in=cities_of(user), status=ProofSubmission.Status.SUBMITTED
        )
        .select_related("case", "case__dog", "submitted_by_person", "submitted_by")
        .order_by("submitted_at", "id")
    )


def _proof(user, pk: int) -> ProofSubmission:
    try:
        return (
            ProofSubmission.objects.select_related(
                "case", "case__dog", "submitted_by_person", "submitted_by", "reviewed_by"
            )
            .prefetch_related("files")
            .get(pk=pk, jurisdiction__in=cities_of(user))
        )
    except ProofSubmission.DoesNotExist:
        raise Http404("No such proof in your cities.") from None


def _label(proof: ProofSubmission) -> tuple[str, str]:
    cond = law.condition(proof.case, proof.condition)
    return (cond.label, cond.citation) if cond else (proof.condition.replace("_", " "), "")


@staff_required
def queue(request):
    paginator = Paginator(waiting(request.user), PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    rows = [{"proof": p, "label": _label(p)[0]} for p in page.object_list]
    return render(
        request,
        "proofs/queue.html",
        {"page": page, "rows": rows, "may_review": services.may_review(request.user)},
    )


@staff_required
def detail(request, pk: int, *, errors=None, status=200, reason=""):
    proof = _proof(request.user, pk)
    label, citation = _label(proof)
    cond = law.condition(proof.case, proof.condition)
    context = {
        "proof": proof,
        "label": label,
        "citation": citation,
        "condition": cond,
        "files": list(proof.files.all()),
        "may_review": services.may_review(request.user) and proof.status == ProofSubmission.Status.SUBMITTED,
        "errors": errors or {},
        "reason": reason,
    }
    return render(request, "proofs/detail.html", context, status=status)


def _reviewer(request, pk: int) -> ProofSubmission:
    proof = _proof(request.user, pk)  # 404 for another city's proof
    if not services.may_review(request.user):
        raise PermissionDenied("Only the animal control officer or the city clerk reviews proof.")
    return proof


@staff_required
@require_POST
def accept(request, pk: int):
    proof = _reviewer(request, pk)
    try:
        services.accept(proof, actor=request.user)
    except services.ProofInvalid as exc:
        return detail(request, pk, errors=exc.errors, status=400)
    messages.success(request, f"Proof accepted: {_label(proof)[0]}.")
    return redirect(_after(request, proof))


@staff_required
@require_POST
def reject(request, pk: int):
    proof = _reviewer(request, pk)
    reason = request.POST.get("reason", "")
    try:
        services.reject(proof, actor=request.user, reason=reason)
    except services.ProofInvalid as exc:
        return detail(request, pk, errors=exc.errors, status=400, reason=reason)
    messages.success(request, f"Proof not accepted: {_label(proof)[0]}. The owner is shown your reason.")
    return redirect(_after(request, proof))


def _after(request, proof) -> str:
    """Back to the case page when the review was made from its panel, else to the queue."""
    if request.POST.get("next") == "case":
        return reverse("staff:case", args=[proof.case.number]) + "#proofs"
    return reverse("proofs:queue")


@staff_required
def download(request, pk: int, file_pk: int):
    proof = _proof(request.user, pk)
    try:
        stored = proof.files.get(pk=file_pk)
    except ProofFile.DoesNotExist:
        raise Http404("No such file.") from None
    return stored_response(stored.path, content_type=stored.content_type, filename=stored.original_name)
