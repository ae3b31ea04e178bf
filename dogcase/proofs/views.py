"""Staff review of proof: the queue of proofs waiting (the user's cities, oldest first), a proof's page with
its files, and the accept / reject forms; and the form to record proof the owner brought or mailed on paper
(the same fields and checks as the owner's own form) — for the animal control officer and the city clerk
only."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from dogcase.cases.access import cities_of
from dogcase.cases.files import stored_response
from dogcase.cases.guards import in_cities, staff_required
from dogcase.cases.models import Case
from dogcase.proofs import conditions as law
from dogcase.proofs import services
from dogcase.proofs.models import ProofFile, ProofSubmission
from dogcase.proofs.owner_views import FIELDS, form_context, posted_values

PAGE_SIZE = 25
# the note of a proof entered by staff: how the paper came in
STAFF_NOTE = (
    "note",
    "How it was received (optional)",
    "textarea",
    "For example: mailed by the owner, received Nov. 28.",
)


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


def proof_label(proof: ProofSubmission, state=None) -> tuple[str, str]:
    """The condition's words and citation; `state`: the case's state, when read already."""
    cond = law.condition(proof.case, proof.condition, state=state)
    return (cond.label, cond.citation) if cond else (proof.condition.replace("_", " "), "")


@staff_required
def queue(request):
    paginator = Paginator(waiting(request.user), PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    rows = [{"proof": p, "label": proof_label(p)[0]} for p in page.object_list]
    return render(
        request,
        "proofs/queue.html",
        {"page": page, "rows": rows, "may_review": services.may_review(request.user)},
    )


@staff_required
def detail(request, pk: int, *, errors=None, status=200, reason=""):
    proof = _proof(request.user, pk)
    label, citation = proof_label(proof)
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
    messages.success(request, f"Proof accepted: {proof_label(proof)[0]}.")
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
    messages.success(request, f"Proof not accepted: {proof_label(proof)[0]}. The owner is shown your reason.")
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


PAPER_FILE_MISSING = "Attach a scan or photo of the paper the owner brought or mailed."
# what the paper of a kind of proof that has no file of its own is
PAPER_WHAT = {"microchip": "the record of the microchip (its number and manufacturer), as the owner gave it"}


def paper_specs(cond) -> list[tuple]:
    """The fields of a proof received on paper: the kind's own fields, then always a file field for the scan
    or photo of the paper, saying what to attach (the kind's own words where it has them), then the note."""
    own = FIELDS.get(cond.kind, FIELDS["document"])
    fields = [spec for spec in own if spec[0] != "files"]
    what = next((str(spec[1]) for spec in own if spec[0] == "files"), "")
    what = what.replace(" (optional)", "")
    what = what or PAPER_WHAT.get(cond.kind, "the paper the owner brought or mailed")
    label = (
        str(what)  # the photos themselves
        if cond.kind == "photos"
        else f"A scan or photo of the paper: {what[:1].lower() + what[1:]}"
    )
    help_text = "PDF or photo (JPEG, PNG, GIF, WebP), up to 5 files. Required: the scan is what is reviewed."
    return [*fields, ("files", label, "files", help_text), STAFF_NOTE]


def _other_problems(cond, values) -> dict[str, str]:
    """The problems of the typed fields, said with the missing scan at once (nothing is recorded)."""
    from django.utils import timezone

    try:
        services.clean(cond, values, [], timezone.localdate())
    except services.ProofInvalid as exc:
        return {k: v for k, v in exc.errors.items() if k != "files"}
    return {}


@staff_required
@require_http_methods(["GET", "POST"])
def record(request, number: str, condition: str):
    """Proof received on paper, entered by the officer or clerk for the owner: recorded as sent by them (the
    audit event names them), then reviewed as any proof. The files are scans or photos of the paper."""
    case = in_cities(Case.objects.select_related("dog"), request.user, number=number)  # 404 elsewhere
    if not services.may_review(request.user):
        raise PermissionDenied("Only the animal control officer or the city clerk records proof.")
    cond = law.condition(case, condition)
    if cond is None:
        raise Http404("The law asks for no such proof in this case.")
    specs = paper_specs(cond)
    values: dict[str, str] = {}
    errors: dict[str, str] = {}
    status = 200
    if request.method == "POST":
        values = posted_values(request, specs)
        uploads = request.FILES.getlist("files")
        try:
            if not uploads:  # the paper is the proof: its scan is what is reviewed, as the owner's file is
                raise services.ProofInvalid({**_other_problems(cond, values), "files": PAPER_FILE_MISSING})
            proof = services.submit(case, cond.id, data=values, uploads=uploads, actor=request.user)
        except services.ProofInvalid as exc:
            errors, status = exc.errors, 400
        else:
            messages.success(request, f"Proof recorded: {cond.label}. Review it below.")
            return redirect("proofs:detail", proof.pk)
    context = form_context(request, case, cond, specs, values, errors)
    return render(request, "proofs/record.html", context, status=status)
