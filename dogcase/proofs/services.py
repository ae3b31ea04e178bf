"""The acts on proof: an owner (or a member of staff) submits it, staff accept or reject it. Each is one
transaction with its audit event on the case; a review sends `signals.proof_reviewed` once committed."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from dogcase.cases import files as file_store
from dogcase.cases.access import require_city, staff_roles
from dogcase.cases.acts import recompute_obligations
from dogcase.cases.acts.core import lock_case, roles_text
from dogcase.cases.audit import append_event
from dogcase.cases.models import Case, Event, Person, jurisdiction_of
from dogcase.law import clock
from dogcase.proofs import conditions as law
from dogcase.proofs.models import ProofFile, ProofSubmission
from dogcase.proofs.signals import proof_reviewed

# The staff roles that review proof: the animal control officer (to whom the packs say proof is given) and the
# city clerk (who issues the certificate). Checked on the server for every review.
REVIEWER_ROLES = frozenset({"animal_control_officer", "city_clerk"})
MAX_FILES = 5
TEXT_LIMITS = {
    "issuer": 200,
    "policy_number": 100,
    "microchip_manufacturer": 200,
    "veterinarian_name": 200,
    "veterinarian_address": 300,
    "veterinarian_phone": 40,
    "note": 2000,
    "reason": 2000,
}
# ISO 11784/11785 microchips carry 15 digits; the older chips in use in the United States 9 or 10 (the
# number as printed, without spaces or hyphens).
MICROCHIP = re.compile(r"^(\d{9}|\d{10}|\d{15})$")


class ProofInvalid(ValueError):
    """What is wrong with a proof, field by field, in words to show beside each field."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = dict(errors)


def may_review(user) -> bool:
    return bool(staff_roles(user) & REVIEWER_ROLES)


def current_owner(case: Case, person: Person, day: dt.date) -> bool:
    return (
        case.dog.ownerships.filter(person=person).filter(Q(until__isnull=True) | Q(until__gte=day)).exists()
    )


# ----------------------------------------------------------------------------------------------- checking


# The words of the form's problems are the owner's language when the portal shows them (the portal reads a
# page in the owner's language), English on the staff pages.


def _required(label) -> str:
    return gettext("%(what)s is required.") % {"what": label} if label else gettext("This is required.")


def _text(data, name, errors, *, required=True, label="") -> str:
    value = (
        " ".join(str(data.get(name) or "").split()) if name != "note" else str(data.get(name) or "").strip()
    )
    if required and not value:
        errors[name] = _required(label)
    elif len(value) > TEXT_LIMITS.get(name, 200):
        errors[name] = gettext("Keep it to %(limit)s characters (this is %(length)s).") % {
            "limit": f"{TEXT_LIMITS[name]:,}",
            "length": f"{len(value):,}",
        }
    return value


def _date(data, name, errors, *, label) -> dt.date | None:
    raw = str(data.get(name) or "").strip()
    if not raw:
        errors[name] = _required(label)
        return None
    try:
        return dt.date.fromisoformat(raw)
    except ValueError:
        missing = clock.missing_day(raw)  # the engine's words ("February 2026 has no day 30"), in English
        if missing and translation.get_language() in (None, "en", "en-us"):
            errors[name] = f"{missing[:1].upper()}{missing[1:]}."
        elif missing:
            errors[name] = gettext("There is no such day in the calendar: %(date)s.") % {"date": raw}
        else:
            errors[name] = gettext("Write the date as YYYY-MM-DD.")
        return None


def _day(value: dt.date) -> str:
    # Translators: a date in a message about a proof; Django date format characters (j day, F month, Y year)
    return date_format(value, pgettext("proof date", "F j, Y"))


def _money(value: Decimal) -> str:
    return f"${value:,.0f}" if value == value.to_integral_value() else f"${value:,.2f}"


def in_force_problem(cond: law.Condition, proof_like, day: dt.date) -> dict[str, str]:
    """The law's tests of a coverage proof on `day`: the amount at least the law's, and in force that day."""
    errors: dict[str, str] = {}
    if cond.kind != "coverage":
        return errors
    amount = proof_like.amount_usd
    if cond.min_amount is not None and amount is not None and amount < cond.min_amount:
        errors["amount_usd"] = gettext(
            "The law requires at least %(minimum)s (%(citation)s); this policy is for %(amount)s."
        ) % {"minimum": _money(cond.min_amount), "citation": cond.amount_citation, "amount": _money(amount)}
    starts, ends = proof_like.starts_on, proof_like.ends_on
    if starts and starts > day:
        errors["starts_on"] = gettext(
            "The policy must be in force on the day it is reviewed (%(day)s); it starts on %(start)s."
        ) % {"day": _day(day), "start": _day(starts)}
    if ends and ends < day:
        errors["ends_on"] = gettext(
            "The policy must be in force on the day it is reviewed (%(day)s); it ended on %(end)s."
        ) % {"day": _day(day), "end": _day(ends)}
    return errors


def clean(cond: law.Condition, data: Mapping[str, str], uploads: Sequence, day: dt.date) -> dict:
    """The proof's fields as the form gives them, checked against the law; raises ProofInvalid naming each
    field and its rule."""
    errors: dict[str, str] = {}
    out: dict = {"note": _text(data, "note", errors, required=False)}
    if cond.kind == "coverage":
        form = str(data.get("coverage_form") or "")
        allowed = [
            gettext(label).lower() for value, label in ProofSubmission.Form.choices if value in cond.forms
        ]
        either = gettext(" or ").join(allowed)
        if form in ProofSubmission.Form.values and form not in cond.forms:
            errors["coverage_form"] = gettext("The law allows only %(forms)s here (%(citation)s).") % {
                "forms": either,
                "citation": cond.forms_citation,
            }
        elif form not in cond.forms:
            errors["coverage_form"] = gettext("Choose %(forms)s.") % {"forms": either}
        out["coverage_form"] = form
        out["issuer"] = _text(data, "issuer", errors, label=_("The insurer's or surety's name"))
        out["policy_number"] = _text(data, "policy_number", errors, label=_("The policy or bond number"))
        raw = str(data.get("amount_usd") or "").replace(",", "").replace("$", "").strip()
        try:
            amount = Decimal(raw)
            if not amount.is_finite() or amount <= 0 or amount >= Decimal("1e10"):
                raise InvalidOperation
            out["amount_usd"] = amount.quantize(Decimal("0.01"))
        except InvalidOperation:
            errors["amount_usd"] = (
                gettext("Give the amount in dollars, e.g. 300000.")
                if raw
                else gettext("The amount is required.")
            )
            out["amount_usd"] = None
        out["starts_on"] = _date(data, "starts_on", errors, label=_("The first day of the policy"))
        out["ends_on"] = _date(data, "ends_on", errors, label=_("The last day of the policy"))
        if out["starts_on"] and out["ends_on"] and out["ends_on"] < out["starts_on"]:
            errors["ends_on"] = gettext("The last day cannot be before the first day.")
        if out["amount_usd"] is not None and "amount_usd" not in errors:
            probe = ProofSubmission(amount_usd=out["amount_usd"])
            errors.update(in_force_problem(cond, probe, day))
        if out["ends_on"] and out["ends_on"] < day and "ends_on" not in errors:
            errors["ends_on"] = gettext("The policy ended on %(end)s; send a policy that is in force.") % {
                "end": _day(out["ends_on"])
            }
        if not uploads:
            errors["files"] = gettext("Attach the certificate of insurance or the bond (PDF or photo).")
    elif cond.kind == "microchip":
        raw = re.sub(r"[\s-]", "", str(data.get("microchip_number") or ""))
        if not raw:
            errors["microchip_number"] = gettext("The microchip number is required.")
        elif not MICROCHIP.match(raw):
            errors["microchip_number"] = (
                gettext(
                    "A microchip number has 9, 10 or 15 digits and nothing else (this has one character)."
                )
                if len(raw) == 1
                else gettext(
                    "A microchip number has 9, 10 or 15 digits and nothing else (this has %(count)s characters)."
                )
                % {"count": len(raw)}
            )
        out["microchip_number"] = raw[:15]
        out["microchip_manufacturer"] = _text(
            data, "microchip_manufacturer", errors, label=_("The microchip manufacturer's name")
        )
    elif cond.kind == "sterilization":
        out["sterilized_on"] = _date(data, "sterilized_on", errors, label=_("The date of the procedure"))
        if out["sterilized_on"] and out["sterilized_on"] > day:
            errors["sterilized_on"] = gettext("The date of the procedure cannot be in the future.")
        out["veterinarian_name"] = _text(
            data, "veterinarian_name", errors, label=_("The veterinarian's name")
        )
        out["veterinarian_address"] = _text(
            data, "veterinarian_address", errors, label=_("The veterinarian's address")
        )
        out["veterinarian_phone"] = _text(
            data, "veterinarian_phone", errors, label=_("The veterinarian's telephone")
        )
        if out["veterinarian_phone"] and sum(ch.isdigit() for ch in out["veterinarian_phone"]) < 7:
            errors["veterinarian_phone"] = gettext(
                "Give the telephone number with its digits, e.g. 218-555-0100."
            )
    elif cond.kind == "photos":
        if not uploads:
            errors["files"] = gettext("Attach at least one photograph.")
    elif not uploads:
        errors["files"] = gettext("Attach the document (PDF or photo).")
    if len(uploads) > MAX_FILES:
        errors["files"] = gettext("Attach at most %(limit)s files (you chose %(count)s).") % {
            "limit": MAX_FILES,
            "count": len(uploads),
        }
    read = []
    if "files" not in errors:
        for upload in uploads:
            try:
                content, content_type, ext = file_store.read_upload(upload, "files")
                read.append((upload, content, content_type, ext))
            except file_store.UploadRejected as exc:
                errors["files"] = f"{getattr(upload, 'name', None) or gettext('The file')}: {exc.rule}."
                break
    if errors:
        raise ProofInvalid(errors)
    out["_files"] = read
    return out


# ----------------------------------------------------------------------------------------------- the acts


def submit(
    case: Case,
    condition_id: str,
    *,
    data: Mapping[str, str],
    uploads: Sequence = (),
    person: Person | None = None,
    actor=None,
    at: dt.datetime | None = None,
) -> ProofSubmission:
    """Record a proof of one condition, sent by the owner `person` (through the portal) or entered by the
    member of staff `actor`. Raises ProofInvalid (field -> rule) or PermissionDenied."""
    at = at or timezone.now()
    j = jurisdiction_of(case)
    day = timezone.localtime(at, j.tz).date()
    if (person is None) == (actor is None):
        raise ValueError("a proof is sent by an owner or by a member of staff")
    if person is not None and not current_owner(case, person, day):
        raise PermissionDenied("Only an owner of the dog may send proof in this case.")
    if actor is not None:
        require_city(actor, case.jurisdiction)
        if not may_review(actor):
            raise PermissionDenied("Your role may not record proof.")
    cond = law.condition(case, condition_id, at)
    if cond is None:
        raise ProofInvalid({"condition": gettext("The law asks for no such proof in this case.")})
    cleaned = clean(cond, data, list(uploads), day)
    stored = cleaned.pop("_files")
    with transaction.atomic():
        lock_case(case.pk)
        proof = ProofSubmission.objects.create(
            jurisdiction=case.jurisdiction,
            case=case,
            condition=cond.id,
            kind=cond.kind,
            submitted_by_person=person,
            submitted_by=actor,
            submitted_at=at,
            **cleaned,
        )
        for upload, data_bytes, content_type, ext in stored:
            digest, relative = file_store.write_blob(data_bytes, ext)
            ProofFile.objects.create(
                proof=proof,
                sha256=digest,
                original_name=(getattr(upload, "name", "") or f"upload{ext}")[:255],
                content_type=content_type,
                size=len(data_bytes),
                path=relative,
            )
        who = person.full_name if person is not None else (actor.get_full_name() or actor.get_username())
        filed_by = {"person": person.pk, "via": "portal"} if person is not None else {"staff": actor.pk}
        proof.submitted_event = append_event(
            at=at,
            jurisdiction=case.jurisdiction,
            case=case,
            actor=actor,
            actor_name=person.full_name if person is not None else None,
            actor_roles="owner" if person is not None else roles_text(actor),
            kind=Event.Kind.RECORD,
            act="submit_proof",
            summary=f"Proof sent by {who}: {cond.what}",
            citation=cond.citation,
            data={
                "proof": proof.pk,
                "condition": cond.id,
                "kind": cond.kind,
                "proof_files": [{"sha256": f.sha256, "name": f.original_name} for f in proof.files.all()],
                "filed_by": filed_by,
            },
        )
        proof.save(update_fields=["submitted_event"])
    return proof


def _review(proof: ProofSubmission, *, actor, accepted: bool, reason: str, at: dt.datetime | None):
    at = at or timezone.now()
    require_city(actor, proof.jurisdiction)
    if not may_review(actor):
        raise PermissionDenied("Only the animal control officer or the city clerk reviews proof.")
    errors: dict[str, str] = {}
    reason = _text({"reason": reason}, "reason", errors, required=not accepted, label="The reason")
    if errors:
        raise ProofInvalid(errors)
    with transaction.atomic():
        lock_case(proof.case_id)
        locked = ProofSubmission.objects.select_for_update().select_related("case").get(pk=proof.pk)
        if locked.status != ProofSubmission.Status.SUBMITTED:
            raise ProofInvalid(
                {"status": f"This proof was already reviewed ({locked.get_status_display().lower()})."}
            )
        case = locked.case
        j = jurisdiction_of(case)
        day = timezone.localtime(at, j.tz).date()
        cond = law.condition(case, locked.condition, at)
        if accepted:
            if cond is None:
                raise ProofInvalid({"condition": "The law no longer asks for this proof in this case."})
            problems = in_force_problem(cond, locked, day)
            if "starts_on" in problems and _continues_coverage(case, locked):
                # the renewal of the bond or insurance on file, starting when it ends: accepted ahead of its
                # first day, so the owner is not in breach between the two (it counts from its first day)
                del problems["starts_on"]
            if problems:
                raise ProofInvalid(problems)
        locked.status = ProofSubmission.Status.ACCEPTED if accepted else ProofSubmission.Status.REJECTED
        locked.reviewed_by = actor
        locked.reviewed_at = at
        locked.reason = reason
        what = cond.what if cond else locked.condition
        facts = {}
        if accepted and locked.kind == "coverage" and locked.ends_on:
            # the last day of the coverage on file: the latest end of the accepted proofs of coverage (the law
            # reads it: the owner's duty to keep the bond or insurance in force, law/vocabulary coverage_ends)
            ends = [
                e
                for e in ProofSubmission.objects.filter(
                    case=case, kind="coverage", status=ProofSubmission.Status.ACCEPTED
                ).values_list("ends_on", flat=True)
                if e
            ]
            facts = {"coverage_ends": max([*ends, locked.ends_on]).isoformat()}
        locked.review_event = append_event(
            at=at,
            jurisdiction=case.jurisdiction,
            case=case,
            actor=actor,
            actor_roles=roles_text(actor),
            kind=Event.Kind.RECORD,
            act="review_proof",
            summary=(f"Proof accepted: {what}" if accepted else f"Proof not accepted: {what} — {reason}"),
            citation=cond.citation if cond else "",
            data={
                "proof": locked.pk,
                "condition": locked.condition,
                "accepted": accepted,
                "reason": reason,
                "submitted_event": locked.submitted_event.seq if locked.submitted_event_id else None,
                **({"events": facts} if facts else {}),
            },
        )
        locked.save(update_fields=["status", "reviewed_by", "reviewed_at", "reason", "review_event"])
        if facts:
            recompute_obligations(case, at=at, actor=actor)
        transaction.on_commit(
            lambda: proof_reviewed.send(sender=ProofSubmission, proof=locked, accepted=accepted)
        )
    return locked


def _continues_coverage(case: Case, proof: ProofSubmission) -> bool:
    """Does this coverage start no later than the day after a coverage accepted on file ends?"""
    if proof.kind != "coverage" or not proof.starts_on:
        return False
    return ProofSubmission.objects.filter(
        case=case,
        kind="coverage",
        status=ProofSubmission.Status.ACCEPTED,
        ends_on__gte=proof.starts_on - dt.timedelta(days=1),
        starts_on__lt=proof.starts_on,
    ).exists()


def accept(proof: ProofSubmission, *, actor, at: dt.datetime | None = None) -> ProofSubmission:
    """Accept a proof: it counts toward its condition from now on (a coverage proof while it is in force)."""
    return _review(proof, actor=actor, accepted=True, reason="", at=at)


def reject(proof: ProofSubmission, *, actor, reason: str, at: dt.datetime | None = None) -> ProofSubmission:
    """Reject a proof with the reason the owner is shown."""
    return _review(proof, actor=actor, accepted=False, reason=reason, at=at)


# ---------------------------------------------------------------------------------------- what counts


def counts_on(proof: ProofSubmission, day: dt.date) -> bool:
    """An accepted proof counts on `day`: a coverage proof only while the policy is in force."""
    if proof.status != ProofSubmission.Status.ACCEPTED:
        return False
    if proof.kind == "coverage":
        return bool(proof.starts_on and proof.ends_on and proof.starts_on <= day <= proof.ends_on)
    return True


def accepted_on(case: Case, day: dt.date) -> dict[str, ProofSubmission]:
    """condition id -> the latest accepted proof that counts on `day`."""
    out: dict[str, ProofSubmission] = {}
    rows = ProofSubmission.objects.filter(case=case, status=ProofSubmission.Status.ACCEPTED).order_by(
        "-reviewed_at", "-id"
    )
    for proof in rows:
        if proof.condition not in out and counts_on(proof, day):
            out[proof.condition] = proof
    return out


def by_condition(case: Case, events=None) -> dict[str, list[ProofSubmission]]:
    """condition id -> its proofs, newest first. `events`: all the case's events, when the caller read them: a
    proof is recorded with its `submit_proof` event on the case in one transaction (`submit`), so a case whose
    events have none has no proof to read."""
    out: dict[str, list[ProofSubmission]] = {}
    if events is not None and not any(e.act == "submit_proof" for e in events):
        return out
    rows = (
        ProofSubmission.objects.filter(case=case)
        .select_related("submitted_by_person", "submitted_by", "reviewed_by")
        .prefetch_related("files")
        .order_by("-submitted_at", "-id")
    )
    for proof in rows:
        out.setdefault(proof.condition, []).append(proof)
    return out


def standing(case: Case, at: dt.datetime | None = None, state=None, events=None) -> list[dict]:
    """Each condition with where its proof stands: "accepted" (the proof that counts), "waiting" (a proof
    not yet reviewed), "rejected" (the latest one was not accepted: its reason), or "missing". `state`: the
    case's state, and `events` (all its events), when the caller has them already (the case page)."""
    at = at or timezone.now()
    j = jurisdiction_of(case)
    day = timezone.localtime(at, j.tz).date()
    proofs = by_condition(case, events)
    rows = []
    for cond in law.conditions(case, at, state=state):
        mine = proofs.get(cond.id, [])
        counting = next((p for p in mine if counts_on(p, day)), None)
        waiting = next((p for p in mine if p.status == ProofSubmission.Status.SUBMITTED), None)
        latest = mine[0] if mine else None
        if counting is not None:
            state = "accepted"
        elif waiting is not None:
            state = "waiting"
        elif latest is not None and latest.status == ProofSubmission.Status.REJECTED:
            state = "rejected"
        elif latest is not None:
            state = "expired"  # accepted, but the policy is no longer in force
        else:
            state = "missing"
        rows.append(
            {
                "condition": cond,
                "state": state,
                "counting": counting,
                "waiting": waiting,
                "latest": latest,
                "proofs": mine,
            }
        )
    return rows
