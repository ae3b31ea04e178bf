"""The law pages: what dogcase applies in a jurisdiction on a date, for anyone (public law, no login): a
pack's contents, and each part of its text, its known problems and its conflicts on pages of their own."""

from __future__ import annotations

import datetime as dt

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse

from dogcase import law
from dogcase.law import clock
from dogcase.law_pages import parts
from dogcase.law_pages.explain import effect_line

NOT_IN_FORCE = "a provision not in force on this date"


class IsoDateField(forms.DateField):
    def to_python(self, value):
        try:
            return super().to_python(value)
        except ValidationError:
            raise ValidationError(
                "Law in force on: %(value)s is not a real date — write it YYYY-MM-DD.",
                code="invalid",
                params={"value": value},
            ) from None


class LawDateForm(forms.Form):
    on = IsoDateField(
        label="Law in force on",
        validators=[MinValueValidator(clock.MIN_DATE), MaxValueValidator(clock.MAX_DATE)],
        input_formats=["%Y-%m-%d"],
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )


def _library_or_unavailable(request):
    try:
        return law.library(), None
    except law.PackError as exc:
        # A pack mid-edit: say which file is wrong rather than fail with a 500.
        response = render(request, "law_pages/unavailable.html", {"error": exc}, status=503)
        return None, response


def jurisdiction_list(request):
    lib, unavailable = _library_or_unavailable(request)
    if unavailable:
        return unavailable
    rows = []
    for j in lib.jurisdictions.values():
        row = j.describe()
        row["layer_over_name"] = lib.jurisdictions[j.state.id].name if j.state else None
        rows.append(row)
    states = [p.source["title"] for p in lib.packs.values() if p.kind == "state"]
    return render(request, "law_pages/list.html", {"jurisdictions": rows, "state_sources": states})


def _jurisdiction(request, jurisdiction_id: str):
    lib, unavailable = _library_or_unavailable(request)
    if unavailable:
        return None, unavailable
    try:
        return lib.get(jurisdiction_id), None
    except law.UnknownJurisdiction:
        raise Http404(f"No law pack for {jurisdiction_id!r}") from None


def _date(request, j):
    """The date asked for (today when none), the form, and the 400 page when the date is not one."""
    today = j.today()
    if "on" not in request.GET:
        return today, today, LawDateForm(initial={"on": today}), None
    form = LawDateForm(request.GET)
    if not form.is_valid():
        context = {"jurisdiction": j.describe(), "form": form}
        return None, today, form, render(request, "law_pages/show.html", context, status=400)
    return form.cleaned_data["on"], today, form, None


def jurisdiction_law(request, jurisdiction_id: str):
    """The pack's contents: each part of its text with its citations and count, every provision linked."""
    j, unavailable = _jurisdiction(request, jurisdiction_id)
    if unavailable:
        return unavailable
    on, today, form, invalid = _date(request, j)
    if invalid:
        return invalid
    law_of = _law_of(j, on, today)
    context = {**law_of, "form": form, "contents": True}
    return render(request, "law_pages/show.html", context)


def law_part(request, jurisdiction_id: str, part: str):
    """One part of the pack's text in full, or its known problems, or its conflicts with state law."""
    j, unavailable = _jurisdiction(request, jurisdiction_id)
    if unavailable:
        return unavailable
    on, today, form, invalid = _date(request, j)
    if invalid:
        return invalid
    law_of = _law_of(j, on, today)
    for page in law_of["problem_pages"]:
        if page["slug"] == part:
            return render(request, "law_pages/problems.html", {**law_of, "page": page})
    if part == "conflicts" and law_of["has_state_layer"]:
        return render(request, "law_pages/conflicts.html", law_of)
    parts = [(layer, p) for layer in law_of["layers"] for p in layer["parts"]]
    for i, (layer, p) in enumerate(parts):
        if p["slug"] == part:
            context = {
                **law_of,
                "layer": layer,
                "part": p,
                "previous": parts[i - 1][1] if i else None,
                "next": parts[i + 1][1] if i + 1 < len(parts) else None,
            }
            return render(request, "law_pages/part.html", context)
    raise Http404(f"No part {part!r} of the law of {jurisdiction_id!r} on {on.isoformat()}")


def _law_of(j, on: dt.date, today: dt.date) -> dict:
    shown = j.show(on)
    citation_of = {p["provision"]: p["citation"] for layer in shown["layers"] for p in layer["provisions"]}
    # A city's page prints its own layer; the state's law under it has pages of their own (the same for every
    # city), linked with the same date, so that each page stays readable and small.
    own = [layer for layer in shown["layers"] if layer["pack"] == j.id]
    elsewhere = [layer for layer in shown["layers"] if layer["pack"] != j.id] if own else []
    if not own:
        own = shown["layers"]
    # Where each provision's full text is: its part's page (the state's, for a state provision on a city's page).
    page_of = {
        p["provision"]: _law_url(layer["pack"], on, today, part["slug"])
        for layer in shown["layers"]
        for part in parts.cut(layer["provisions"])
        for p in part["provisions"]
    }
    elsewhere_keys = {p["provision"] for layer in elsewhere for p in layer["provisions"]}

    def href(key: str) -> str:
        # A provision not in force on the date has no page to go to (its citation says so, below).
        return f"{page_of[key]}#p-{key}" if key in page_of else ""

    def citation(key: str) -> str:
        return citation_of.get(key) or NOT_IN_FORCE

    def cited(keys) -> list[dict]:
        return [{"key": key, "citation": citation(key), "href": href(key)} for key in keys]

    def on_this_page(defect: dict) -> bool:
        return not defect["provisions"] or any(key not in elsewhere_keys for key in defect["provisions"])

    defects = [
        {
            **d,
            "concerns": cited(d["provisions"]),
            "attorney": [("Problem", d["id"]), ("Provisions", ", ".join(d["provisions"]))],
        }
        for d in shown["defects"]
        if on_this_page(d)
    ]
    problem_pages = []
    for i, page in enumerate(parts.cut_problems(defects), start=1):
        slug = parts.problems_slug(i)
        url = _law_url(j.id, on, today, slug)
        for d in page:
            d["href"] = f"{url}#d-{d['id']}"
        problem_pages.append({"slug": slug, "url": url, "index": i, "defects": page})
    for page in problem_pages:
        page["of"] = len(problem_pages)
        page["ids"] = " ".join(f"d-{d['id']}" for d in page["defects"])
    problem_href = {d["id"]: d["href"] for d in defects}
    problems_url = problem_pages[0]["url"]
    layers = _layers(j, {**shown, "layers": own}, on)
    for layer in layers:
        layer["parts"] = parts.cut(layer["provisions"])
        for part in layer["parts"]:
            part["url"] = _law_url(layer["pack"], on, today, part["slug"])
            for p in part["provisions"]:
                p["href"] = href(p["provision"])
                for d in p["defects"]:
                    d["href"] = problem_href.get(d["id"], f"{problems_url}#d-{d['id']}")
    return {
        "jurisdiction": shown["jurisdiction"],
        "on": on,
        "is_today": on == today,
        "contents_url": _law_url(j.id, on, today),
        "problems_url": problems_url,
        "problem_pages": problem_pages,
        "conflicts_url": _law_url(j.id, on, today, "conflicts"),
        "layers": layers,
        "linked_layers": [
            {
                "name": layer["name"],
                "kind": layer["kind"],
                "count": len(layer["provisions"]),
                "url": _law_url(layer["pack"], on, today),
                "problems_url": _law_url(layer["pack"], on, today, "problems"),
                "defects": sum(1 for d in shown["defects"] if not on_this_page(d)),
            }
            for layer in elsewhere
        ],
        "designations": [
            {
                **d,
                "counterpart_label": j.designations[d["state_counterpart"]].label.lower()
                if d["state_counterpart"] in j.designations
                else d["state_counterpart"],
                "defined_by_citation": citation(d["defined_by"]),
                "defined_by_href": href(d["defined_by"]),
            }
            for d in shown["designations"]
        ],
        "defects": defects,
        "missing_settings": [
            {
                **s,
                "for_citation": citation(s["for"]) if s["for"] else None,
                "for_href": href(s["for"]) if s["for"] else "",
                "attorney": [("Setting", s["id"])] + ([("Provision", s["for"])] if s["for"] else []),
            }
            for s in shown["settings"]
            if s["value"] is None
        ],
        "conflicts": [
            {
                **c,
                "city_href": href(c["city"].get("provision") or ""),
                "state_href": href(c["state"].get("provision") or ""),
                "attorney": [("Topic", c["topic"]), ("Kind", c["kind"])],
            }
            for c in j.conflicts(on)
        ],
        "has_state_layer": j.state is not None,
        "holidays": [{**h, "date": dt.date.fromisoformat(h["date"])} for h in shown["holidays"]],
    }


def _law_url(pack: str, on: dt.date, today: dt.date, part: str | None = None) -> str:
    url = reverse("law_pages:part", args=[pack, part]) if part else reverse("law_pages:show", args=[pack])
    return url if on == today else f"{url}?on={on.isoformat()}"


def _layers(j, shown: dict, on: dt.date) -> list[dict]:
    """Each layer's provisions in force, in the order of the text, each with its effect said in words."""
    roles = {r.id: r.label for r in j.roles.values()}
    designations = {d.id: d.label for d in j.designations.values()}
    eligibilities = {e.id: e.label for e in j.eligibilities.values()}
    out = []
    for layer in shown["layers"]:
        items: list[dict] = []
        for p in layer["provisions"]:
            kind = p.get("effect_kind")
            effect = dict(p.get("effect") or {})
            if kind == "deadline":
                effect.setdefault("kind", "due")
            items.append(
                {
                    **p,
                    "anchor": f"p-{p['provision']}",
                    "effect_kind": kind,
                    "effect_line": effect_line(
                        kind,
                        effect,
                        roles=roles,
                        designations=designations,
                        eligibilities=eligibilities,
                        events=j.event_words,
                        methods={m: j.service_method_label(m) for m in j.service_methods},
                    ),
                    "defects": [d.as_dict() for d in j.defects_for([p["provision"]], on)],
                }
            )
        summary = bool(layer["provisions"]) and all(p.get("quoted") is False for p in layer["provisions"])
        out.append({**layer, "provisions": items, "count": len(layer["provisions"]), "summary": summary})
    return out
