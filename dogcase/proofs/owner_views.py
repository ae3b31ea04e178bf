"""The owner's pages for proof: what the law asks them to prove, where each proof stands, and a form per
condition. Undecorated: the portal mounts them behind `dogcase.owners.access.owner_case_view`, which finds the
case and the signed-in owner (404 otherwise) and passes them in (docs/proofs.md)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import csrf_protect

from dogcase.proofs import conditions as law
from dogcase.proofs import services
from dogcase.proofs.models import ProofSubmission

# The fields of each kind of proof, in the order the form shows them: (name, label, input type, help).
FIELDS = {
    "coverage": [
        ("coverage_form", _("Which is it?"), "choice", ""),
        ("issuer", _("Name of the insurance company or surety"), "text", ""),
        ("policy_number", _("Policy or bond number"), "text", ""),
        ("amount_usd", _("Amount of coverage, in dollars"), "money", _("Write the number, e.g. 300000.")),
        ("starts_on", _("First day the policy is in force"), "date", ""),
        ("ends_on", _("Last day the policy is in force"), "date", ""),
        ("files", _("The certificate of insurance or the bond"), "files", _("A PDF or a photo of it.")),
    ],
    "microchip": [
        (
            "microchip_number",
            _("Microchip number"),
            "chip",
            _("9, 10 or 15 digits, as on the veterinarian's record."),
        ),
        (
            "microchip_manufacturer",
            _("Microchip manufacturer"),
            "text",
            _("For example HomeAgain, AVID, 24PetWatch."),
        ),
    ],
    "sterilization": [
        ("sterilized_on", _("Date of the procedure"), "date", ""),
        ("veterinarian_name", _("Veterinarian's name"), "text", ""),
        ("veterinarian_address", _("Veterinarian's address"), "text", ""),
        ("veterinarian_phone", _("Veterinarian's telephone"), "tel", ""),
        ("files", _("The veterinarian's record (optional)"), "files", _("A PDF or a photo of it.")),
    ],
    "photos": [
        ("files", _("Photos"), "files", _("Up to 5 photos (JPEG, PNG, GIF, WebP) or PDFs.")),
    ],
    "document": [
        ("files", _("The document"), "files", _("Up to 5 files: PDF or photos.")),
    ],
}
NOTE = ("note", _("Anything you want the city to know (optional)"), "textarea", "")
STATUS_WORDS = {
    ProofSubmission.Status.SUBMITTED: _("Waiting for review"),
    ProofSubmission.Status.ACCEPTED: _("Accepted"),
    ProofSubmission.Status.REJECTED: _("Not accepted"),
}


def posted_values(request, specs) -> dict[str, str]:
    """What was typed in each field of a proof form (files come apart, in request.FILES)."""
    return {name: (request.POST.get(name) or "") for name, *_ in specs if name != "files"}


def form_context(request, case, cond, specs, values: dict[str, str], errors: dict[str, str]) -> dict:
    """The context of a proof form, the owner's or staff's: its fields with what was typed and each field's
    problem, the problems of no field, the kinds of coverage the law allows, and whether a chosen file was
    lost (a browser never sends one again)."""
    fields = [
        {
            "name": name,
            "id": f"f-{name}",
            "label": label,
            "type": kind,
            "help": help_text,
            "value": values.get(name, ""),
            "error": errors.get(name, ""),
        }
        for name, label, kind, help_text in specs
    ]
    return {
        "case": case,
        "condition": cond,
        "fields": fields,
        "errors": errors,
        "other_errors": {k: v for k, v in errors.items() if k not in {f["name"] for f in fields}},
        "coverage_forms": [
            (v, gettext(label)) for v, label in ProofSubmission.Form.choices if v in cond.forms
        ],
        "files_lost": bool(errors) and bool(request.FILES),
    }


def _owned(case, person) -> None:
    if not services.current_owner(case, person, timezone.localdate()):
        raise Http404("No such case.")


def proof_list(request, case, person):
    """Each condition the law asks the owner to prove (of the registration, where the law registers the dog)
    in plain English with its citation, and where its proof stands."""
    _owned(case, person)
    rows = services.standing(case)
    for row in rows:
        row["history"] = [
            {"proof": p, "status": STATUS_WORDS[p.status], "files": list(p.files.all())}
            for p in row["proofs"]
        ]
    registration = law.registered(case) and any(row["condition"].condition_of_registration for row in rows)
    return render(
        request,
        "proofs/owner_list.html",
        {"case": case, "person": person, "rows": rows, "registration": registration},
    )


@csrf_protect
def proof_upload(request, case, person, condition):
    """The form of one condition's proof; on a problem every field says what is wrong and keeps what was
    typed (a file must be chosen again: browsers never re-send one)."""
    _owned(case, person)
    cond = law.condition(case, condition)
    if cond is None:
        raise Http404("The law asks for no such proof in this case.")
    specs = [*FIELDS.get(cond.kind, FIELDS["document"]), NOTE]
    values: dict[str, str] = {}
    errors: dict[str, str] = {}
    status = 200
    if request.method == "POST":
        values = posted_values(request, specs)
        try:
            services.submit(case, cond.id, data=values, uploads=request.FILES.getlist("files"), person=person)
        except services.ProofInvalid as exc:
            errors = exc.errors
            status = 400
        except PermissionDenied:
            raise Http404("No such case.") from None
        else:
            return HttpResponseRedirect(reverse("owners:proofs", args=[case.number]) + "?sent=1")
    context = {**form_context(request, case, cond, specs, values, errors), "person": person}
    return render(request, "proofs/owner_upload.html", context, status=status)
