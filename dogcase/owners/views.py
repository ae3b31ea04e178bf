"""The owner's portal: sign in with the case access code and one fact from the notice (then, when an e-mail
address is known, a one-time link), the case page, the PDFs of the owner's documents, and the forms of the
owner's own legal acts, each filed through acts.take_owner_step."""

from __future__ import annotations

import datetime as dt
import logging
import uuid

from django.conf import settings
from django.db import transaction
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from dogcase.accounts.throttle import client_address
from dogcase.cases import acts
from dogcase.cases.acts.moves import destination_choices
from dogcase.documents.next_steps import date_words
from dogcase.documents.views import pdf_response
from dogcase.law import InputError, library
from dogcase.owners import access, codes, pages, throttle
from dogcase.owners import tasks as owner_tasks
from dogcase.owners.models import SignInLink
from dogcase.owners.what_you_owe import what_you_owe, where_your_dog_is

logger = logging.getLogger(__name__)


def _fold(value: str) -> str:
    return " ".join((value or "").split()).casefold()


def fact_matches(code, fact: str) -> bool:
    """The fact from the notice: the dog's name, or the owner's ZIP code (its first five digits), any case."""
    given = _fold(fact)
    if not given:
        return False
    if given == _fold(code.case.dog.name):
        return True
    zip_code = "".join(ch for ch in code.person.postal_code if ch.isdigit())[:5]
    digits = "".join(ch for ch in given if ch.isdigit())[:5]
    return bool(zip_code) and len(digits) == 5 and digits == zip_code and not any(c.isalpha() for c in given)


def _masked(email: str) -> str:
    name, _at, domain = email.partition("@")
    return f"{name[:1]}…@{domain}"


def _replaced_words(row) -> str:
    """What the owner of a code that staff replaced reads: when, and what to do (told only to someone who also
    gave the dog's name or the ZIP code: the code's own holder)."""
    j = library().get(row.case.jurisdiction)
    found = pages.contact(j)
    office, telephone = found["office"], found["telephone"]
    language = "es" if (translation.get_language() or "").startswith("es") else "en"
    when = date_words(timezone.localtime(row.revoked_at).date(), language)
    if telephone:
        return _(
            "This code was replaced on %(date)s. Use the code on your latest letter from the city, or call "
            "%(office)s at %(telephone)s."
        ) % {"date": when, "office": office, "telephone": telephone}
    return _(
        "This code was replaced on %(date)s. Use the code on your latest letter from the city, or call "
        "%(office)s."
    ) % {"date": when, "office": office}


@require_http_methods(["GET", "POST"])
def sign_in(request):
    signed_in = access.current(request)
    if request.method == "GET" and signed_in is not None:
        return redirect("owners:case", number=signed_in[0].case.number)
    # the QR code on the notice opens this page with the code filled in; the owner still gives the fact
    values = {"code": (request.GET.get("code") or "").strip()[:40], "fact": ""}
    error = ""
    status = 200
    if request.method == "POST":
        values = {
            "code": (request.POST.get("code") or "").strip()[:40],
            "fact": (request.POST.get("fact") or "")[:100],
        }
        now = timezone.now()
        address = client_address(request)
        until = throttle.locked_until(values["code"], address, now)
        if until is not None:
            error = _("Too many attempts. Try again after %(time)s.") % {
                "time": timezone.localtime(until).strftime("%H:%M")
            }
            status = 429
        else:
            code = codes.find_live(values["code"])
            if code is None or not fact_matches(code, values["fact"]):
                throttle.record_failure(values["code"], address, now)
                replaced = codes.find_replaced(values["code"]) if code is None else None
                if replaced is not None and fact_matches(replaced, values["fact"]):
                    error = _replaced_words(replaced)
                else:
                    error = _(
                        "The code and the answer do not match a case. Check the code printed on your notice, "
                        "and type your dog's name or your ZIP code as the notice gives them."
                    )
                status = 400
            else:
                throttle.record_success(values["code"], address, now)
                if code.person.email:
                    # a few valid links at once, no more: asking again does not send the owner more mail
                    valid = SignInLink.objects.filter(
                        access_code=code, used_at__isnull=True, expires_at__gt=now
                    )
                    if valid.count() < settings.DOGCASE_OWNER_LINKS_AT_ONCE:
                        row = SignInLink.objects.create(
                            access_code=code,
                            token_hash=owner_tasks.pending_hash(),
                            created_at=now,
                            expires_at=now + dt.timedelta(minutes=settings.DOGCASE_OWNER_LINK_MINUTES),
                        )
                        owner_tasks.send_link.enqueue(row.pk)  # by the worker: the page never waits on mail
                    with translation.override(access.language_of(code.person)):
                        return render(
                            request,
                            "owners/link_sent.html",
                            {
                                "email": _masked(code.person.email),
                                "minutes": settings.DOGCASE_OWNER_LINK_MINUTES,
                            },
                        )
                access.start(request, code)
                return redirect("owners:case", number=code.case.number)
    return render(request, "owners/sign_in.html", {"values": values, "error": error}, status=status)


@require_http_methods(["GET", "POST"])
def link(request, token: str):
    """A one-time link: opening it shows a button (a mail scanner that fetches the link does not use it up);
    the button completes the sign-in, once, within its minutes."""
    now = timezone.now()
    row = (
        SignInLink.objects.select_related("access_code", "access_code__case", "access_code__person")
        .filter(token_hash=codes.keyed_hash("link", token))
        .first()
    )
    usable = row is not None and row.used_at is None and row.expires_at > now and row.access_code.live
    if not usable:
        return render(request, "owners/link_invalid.html", status=410 if row is not None else 404)
    if request.method == "POST":
        with transaction.atomic():
            taken = SignInLink.objects.filter(pk=row.pk, used_at__isnull=True).update(used_at=now)
        if not taken:
            return render(request, "owners/link_invalid.html", status=410)
        access.start(request, row.access_code)
        return redirect("owners:case", number=row.access_code.case.number)
    with translation.override(access.language_of(row.access_code.person)):
        return render(request, "owners/link_confirm.html", {})


@require_POST
def sign_out(request):
    access.end(request)
    return redirect("owners:sign_in")


@access.owner_case_view
def case_page(request, case, person):
    j = acts.jurisdiction_of(case)
    now = timezone.now()
    language = access.language_of(person)
    context = {
        "case": case,
        "person": person,
        "city": j.name,
        "designation": pages.designation(case, j, language),
        "obligations": pages.obligations(case, now, language),
        "owed": what_you_owe(case, j, timezone.localtime(now, j.tz).date(), language),
        "custody": where_your_dog_is(case, j, timezone.localtime(now, j.tz).date(), language, person),
        "documents": pages.documents(case),
        "hearings": pages.hearings(case, j, language, person),
        "history": pages.history(case, person, j, language),
        "stands": pages.where_it_stands(case, person, j, language),
        "contact": pages.contact(j),
        "owner_steps": pages.owner_steps(case, person, j, now, language),
        "proof": pages.proof_needed(case),
        "today": date_words(timezone.localdate(), language),
        "filed": request.GET.get("filed") == "1",
    }
    return render(request, "owners/case.html", context)


@access.owner_case_view
def document(request, case, person, pk: int):
    doc = next((d for d in pages.documents(case) if d.pk == pk), None)
    if doc is None:
        raise Http404("No such document.")
    return pdf_response(doc)


class _Problem(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def form_inputs(step):
    """The inputs the owner fills: not the files (sent another way) nor the filing's own date."""
    return [i for i in step.inputs if i.kind != "file" and not i.filing_date and i.kind != "document"]


def _read(step, post) -> dict:
    out = {}
    for inp in form_inputs(step):
        raw = (post.get(f"in-{inp.id}") or "").strip()
        if not raw:
            if inp.required:
                raise _Problem(inp.id, _("This is needed: %(label)s.") % {"label": _(inp.label)})
            continue
        if inp.kind == "date":
            try:
                out[inp.id] = dt.date.fromisoformat(raw).isoformat()
            except ValueError:
                raise _Problem(
                    inp.id, _("Give the date as the date picker shows it (year-month-day).")
                ) from None
        elif inp.kind == "bool":
            if raw not in ("yes", "no"):
                raise _Problem(inp.id, _("Answer yes or no."))
            out[inp.id] = raw == "yes"
        else:
            out[inp.id] = raw
    return out


@access.owner_case_view
def file_step(request, case, person, step_id: str):
    j = acts.jurisdiction_of(case)
    now = timezone.now()
    language = access.language_of(person)
    offered = {s["id"]: s for s in pages.owner_steps(case, person, j, now)}
    try:
        step = j.step(step_id, timezone.localdate())
    except InputError:
        raise Http404("No such form.") from None
    if not step.filed_by_owner:
        raise Http404("No such form.")
    values = {i.id: "" for i in form_inputs(step)}
    errors: dict[str, str] = {}
    refusals: list = []
    notice = ""
    status = 200
    key = uuid.uuid4().hex
    version = case.version
    if request.method == "POST":
        key = (request.POST.get("idempotency_key") or "")[:64] or uuid.uuid4().hex
        values.update({i.id: (request.POST.get(f"in-{i.id}") or "").strip() for i in form_inputs(step)})
        try:
            version = int(request.POST.get("version") or 0)
            inputs = _read(step, request.POST)
            result = acts.take_owner_step(
                case,
                step_id,
                person=person,
                inputs=inputs,
                expected_version=version,
                idempotency_key=f"owner:{key}",
            )
        except _Problem as exc:
            errors[exc.field] = exc.message
            status = 400
        except ValueError:
            errors["general"] = _("The form was incomplete; send it again.")
            status = 400
        except acts.InvalidInput as exc:
            named = str(exc.field).rsplit(".", 1)[-1]  # the engine names "inputs.<id>"
            field = named if named in values else "general"
            errors[field] = f"{_(exc.rule[:1].upper() + exc.rule[1:])}"
            status = 400
        except acts.StaleCase as exc:
            version = exc.case.version
            notice = _(
                "Something changed on the case since you opened this form. Check it and send it again."
            )
            status = 409
        except acts.Refused as exc:
            refusals = exc.refusals
            status = 409
        else:
            del result
            return redirect(reverse("owners:case", args=[case.number]) + "?filed=1")
    elif step_id not in offered:
        # not open now: say why, from the law (the date it closed and the citation)
        state = acts.case_state(case)
        verdict = j.check_step(
            step_id,
            state,
            acts.law_actor_for_filing(step, person),
            now,
            pages.filing_inputs(step, now) or None,
        )
        refusals = [
            {"reason": r.reason, "citation": (r.provision or {}).get("citation", ""), "code": r.code}
            for r in verdict.refusals
        ]
    fields = [
        {
            "id": i.id,
            "name": f"in-{i.id}",
            "kind": i.kind,
            "label": _(i.label),
            "required": bool(i.required),
            "value": values.get(i.id, ""),
            "error": errors.get(i.id, ""),
            "max_length": f"{i.text_limit:,}" if i.kind == "text" else "",
            # where the dog moved: the cities and counties served here, or another place the owner names
            "choices": [{**c, "label": _(c["label"])} for c in destination_choices(case)]
            if i.kind == "jurisdiction"
            else [],
        }
        for i in form_inputs(step)
    ]
    context = {
        "case": case,
        "person": person,
        "title": pages.owner_title(step),
        "step": step,
        "fields": fields,
        "errors": errors,
        "refusals": refusals,
        "notice": notice,
        "key": key,
        "version": version,
        "closes": pages.closes(case, step, j, now, language),
        "citation": "; ".join(dict.fromkeys(p["citation"] for p in step.provisions)),
        "filed_with": pages.filed_with(j, step, case.designation),
        "today": date_words(timezone.localdate(), language),
        "open": step_id in offered or request.method == "POST",
        "costs": costs_before_filing(j, step, case.designation, timezone.localdate()),
    }
    return render(request, "owners/file_step.html", context, status=status)


def costs_before_filing(j, step, designation: str | None, day) -> list[dict[str, str]]:
    """The costs the law may put on the owner for what the step starts (the hearing's expenses), told before
    the owner files it: the pack's plain words, the provision's citation and its text as quoted. Only where the
    pack's law says so (a cost whose `before_filing` names the step); nothing is said otherwise."""
    out = []
    for v in j.versions_on(day):
        effect = v.effect or {}
        if v.effect_kind != "cost" or step.id not in (effect.get("before_filing") or ()):
            continue
        scope = effect.get("for")
        if designation and scope and designation not in scope:
            continue
        out.append(
            {
                "words": _(str(effect.get("owner_words") or "")) if effect.get("owner_words") else "",
                "citation": v.citation,
                "text": v.text if v.quoted else "",
            }
        )
    return out
