"""The law page: what dogcase applies in a jurisdiction on a date, for anyone (public law, no login)."""

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
from dogcase.law_pages.explain import effect_line


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


def jurisdiction_law(request, jurisdiction_id: str):
    lib, unavailable = _library_or_unavailable(request)
    if unavailable:
        return unavailable
    try:
        j = lib.get(jurisdiction_id)
    except law.UnknownJurisdiction:
        raise Http404(f"No law pack for {jurisdiction_id!r}") from None
    today = j.today()
    if "on" in request.GET:
        form = LawDateForm(request.GET)
        if not form.is_valid():
            context = {"jurisdiction": j.describe(), "form": form}
            return render(request, "law_pages/show.html", context, status=400)
        on = form.cleaned_data["on"]
    else:
        on = today
        form = LawDateForm(initial={"on": on})
    shown = j.show(on)
    citation_of = {p["provision"]: p["citation"] for layer in shown["layers"] for p in layer["provisions"]}
    # A city's page prints its own layer; the state's law under it is one page of its own (it is the same for
    # every city), linked with the same date, so that the page stays readable and small.
    own = [layer for layer in shown["layers"] if layer["pack"] == j.id]
    elsewhere = [layer for layer in shown["layers"] if layer["pack"] != j.id] if own else []
    if not own:
        own = shown["layers"]
    page_of = {
        p["provision"]: _law_url(layer["pack"], on, today) for layer in elsewhere for p in layer["provisions"]
    }

    def href(key: str) -> str:
        return f"{page_of.get(key, '')}#p-{key}"

    def cited(keys) -> list[dict]:
        return [{"key": key, "citation": citation_of.get(key, key), "href": href(key)} for key in keys]

    def on_this_page(defect: dict) -> bool:
        return not defect["provisions"] or any(key not in page_of for key in defect["provisions"])

    context = {
        "jurisdiction": shown["jurisdiction"],
        "form": form,
        "on": on,
        "is_today": on == today,
        "layers": _layers(j, {**shown, "layers": own}, on),
        "linked_layers": [
            {
                "name": layer["name"],
                "kind": layer["kind"],
                "count": len(layer["provisions"]),
                "url": _law_url(layer["pack"], on, today),
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
                "defined_by_citation": citation_of.get(d["defined_by"], d["defined_by"]),
                "defined_by_href": href(d["defined_by"]),
            }
            for d in shown["designations"]
        ],
        "defects": [
            {
                **d,
                "concerns": cited(d["provisions"]),
                "attorney": [("Problem", d["id"]), ("Provisions", ", ".join(d["provisions"]))],
            }
            for d in shown["defects"]
            if on_this_page(d)
        ],
        "missing_settings": [
            {
                **s,
                "for_citation": citation_of.get(s["for"], s["for"]) if s["for"] else None,
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
    return render(request, "law_pages/show.html", context)


def _law_url(pack: str, on: dt.date, today: dt.date) -> str:
    url = reverse("law_pages:show", args=[pack])
    return url if on == today else f"{url}?on={on.isoformat()}"


def _layers(j, shown: dict, on: dt.date) -> list[dict]:
    """Each layer's provisions in force, grouped by heading (consecutive, in the order of the text)."""
    roles = {r.id: r.label for r in j.roles.values()}
    designations = {d.id: d.label for d in j.designations.values()}
    eligibilities = {e.id: e.label for e in j.eligibilities.values()}
    out = []
    for layer in shown["layers"]:
        groups: list[dict] = []
        for p in layer["provisions"]:
            kind = p.get("effect_kind")
            effect = dict(p.get("effect") or {})
            if kind == "deadline":
                effect.setdefault("kind", "due")
            item = {
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
            heading = p.get("heading")
            if not groups or groups[-1]["heading"] != heading:
                groups.append({"heading": heading, "provisions": []})
            groups[-1]["provisions"].append(item)
        summary = bool(layer["provisions"]) and all(p.get("quoted") is False for p in layer["provisions"])
        out.append({**layer, "groups": groups, "count": len(layer["provisions"]), "summary": summary})
    return out
