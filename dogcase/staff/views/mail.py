"""The day's mail (issue 20, item 8): what is to be mailed today in the user's cities, the one PDF to print (the
certified-mail sheet and every document), and "Mark all as mailed today" after a confirmation. Thin: the list,
the bundle and the act are dogcase.documents.mail_today's."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from dogcase.cases import acts as case_acts
from dogcase.cases.access import cities_of
from dogcase.cases.guards import is_read_only, may_record, require_writer, staff_required
from dogcase.cases.pages import now_and_today
from dogcase.documents import mail_today as mail


def _may_mark(user) -> bool:
    return not is_read_only(user) and may_record(user)


def _numbers(post) -> dict[int, str]:
    out = {}
    for key, value in post.items():
        if key.startswith("article-"):
            try:
                out[int(key.removeprefix("article-"))] = value.strip()[:40]
            except ValueError:
                continue
    return out


def _ids(post) -> list[int]:
    out = []
    for value in post.getlist("document"):
        try:
            out.append(int(value))
        except ValueError:
            continue
    return out


@staff_required
def mail_today(request):
    """GET: the day's mail. POST `step=confirm`: what will be recorded, to confirm; POST `step=mark`: record it."""
    user = request.user
    now, today = now_and_today()
    cities = cities_of(user)
    context = {"errors": [], "confirm": False, "numbers": {}}
    if request.method == "POST":
        require_writer(user)
        if not may_record(user):
            raise PermissionDenied("Your role does not record the service of documents.")
        numbers = _numbers(request.POST)
        ids = _ids(request.POST)
        days = mail.days_mail(cities, day=today)
        chosen = [p for p in days.to_mark if p.document.pk in ids]
        missing = mail.missing_article_numbers(chosen, numbers)
        context["numbers"] = numbers
        if not chosen:
            messages.info(request, "Nothing to record: every document listed is already recorded as mailed.")
            return redirect(reverse("staff:mail_today"))
        if missing:
            context["errors"] = [
                f"Give the article number of {p.document.title} No. {p.document.number} (certified mail)."
                for p in missing
            ]
        elif request.POST.get("step") == "mark":
            try:
                done = mail.mark_mailed_today(cities, ids, actor=user, article_numbers=numbers, at=now)
            except case_acts.InvalidInput as exc:
                context["errors"] = [exc.rule[:1].upper() + exc.rule[1:] + "."]
            else:
                if done.recorded:
                    messages.success(
                        request,
                        f"Recorded as mailed today: {len(done.recorded)} document"
                        f"{'s' if len(done.recorded) != 1 else ''}.",
                    )
                for document, why in done.refused:
                    messages.warning(
                        request, f"Not recorded: {document.title} No. {document.number} — {why}."
                    )
                return redirect(reverse("staff:mail_today"))
        else:
            context["confirm"] = True
            context["chosen"] = chosen
    days = mail.days_mail(cities, day=today)
    context.update(
        {
            "day": today,
            "mail": days,
            "to_mark": days.to_mark,
            "marked": days.marked,
            "count": len(days.pieces),
            "certified_count": len(days.certified),
            "certified_to_number": sum(1 for p in days.to_mark if p.certified),
            "may_mark": _may_mark(user),
            "within_days": mail.MAIL_WITHIN.days,
        }
    )
    if context["confirm"]:
        context["chosen_numbers"] = [
            (p, context["numbers"].get(p.document.pk, "")) for p in context["chosen"]
        ]
    status = 422 if context["errors"] else 200
    return render(request, "staff/mail_today.html", context, status=status)


@staff_required
@require_GET
def mail_today_pdf(request):
    """The day's mail as one PDF: the certified-mail sheet, then each document as issued, in order."""
    _now, today = now_and_today()
    days = mail.days_mail(cities_of(request.user), day=today)
    try:
        data = mail.bundle_pdf(days)
    except (mail.MergeUnavailable, OSError) as exc:
        messages.error(request, f"The day's mail could not be put in one PDF: {exc}")
        return redirect(reverse("staff:mail_today"))
    if not data:
        messages.info(request, "There is nothing to mail today.")
        return redirect(reverse("staff:mail_today"))
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="mail-{today.isoformat()}.pdf"'
    response["Cache-Control"] = "no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response
