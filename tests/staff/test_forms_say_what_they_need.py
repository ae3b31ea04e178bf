"""Forms that say what they need (issue 20, item 7): an input a document cannot be issued without is required
where it is given and refused on its field before any act; a telephone is a telephone field; a proof on paper
has its file field; proof files show their names; one queue of proof to review; a refused hearing date names
its last allowed day; the owner's hearing request takes the owner's reasons and says what the hearing may cost.
"""

import datetime as dt
import json
import re
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

from dogcase.cases.act_forms import FormProblem, read_inputs
from dogcase.cases.models import Event
from dogcase.documents.sources import INPUT_SOURCES
from dogcase.law import CaseState, InputError, library
from dogcase.law.documents import placeholders
from dogcase.law.procedure.cleaning import clean_telephone
from dogcase.owners.views import costs_before_filing
from dogcase.proofs.models import ProofSubmission, shown_file_name
from dogcase.proofs.owner_views import FIELDS
from dogcase.proofs.views import paper_specs
from dogcase.staff.stepforms import document_needs, fields_for
from tests.cases.conftest import SERIOUS, Story, at, on
from tests.proofs.helpers import coverage_data, owner_of, pdf, png
from tests.staff.conftest import client_for, declare, record_bite, take

pytestmark = pytest.mark.django_db

SHIPPED = ("battle-lake-mn", "tracy-mn")
ORDINANCE = Path("/work/shared/ordinances/dangerous-dogs-section-90-15.txt")


def every_step(city: str):
    j = library().get(city)
    day = timezone.localdate()
    for step in j.procedure(day):
        for designation in tuple(step.for_ or ()) or (None,):
            yield j, step.for_designation(designation) if designation else step, designation


def _noon(j):
    return dt.datetime.combine(timezone.localdate(), dt.time(12), tzinfo=j.tz)


# ------------------------------------------------------------------ a. what the step's documents need


def _printed_unconditionally(j, step, designation) -> set[str]:
    """The step's inputs that a document the step issues prints in a section without a condition, read from
    the documents' text (not through the form's code)."""
    day = timezone.localdate()
    types = j.document_types(step.id, designation, day) if hasattr(j, "document_types") else []
    out = set()
    for t in types:
        for page in j.document_pages(t.id, day):
            for section in page.sections:
                if section.when is not None:
                    continue
                for name in placeholders(str(section.text or "")):
                    if name.startswith("input."):
                        out.add(name.removeprefix("input."))
                    elif name in INPUT_SOURCES and {step.act, step.id} & set(INPUT_SOURCES[name][0]):
                        given = [i for i in INPUT_SOURCES[name][1] if any(x.id == i for x in step.inputs)]
                        if given and not any(x.id == g and x.required for g in given for x in step.inputs):
                            out.add(given[0])
    return {i.id for i in step.inputs if i.id in out}


@pytest.mark.parametrize("city", SHIPPED)
def test_no_input_a_document_of_its_step_prints_is_offered_as_optional(city):
    checked = 0
    for j, step, designation in every_step(city):
        state = CaseState(designation, timezone.localdate() - dt.timedelta(days=30), ())
        fields = {f["id"]: f for f in fields_for(j, step, state=state, at=_noon(j))}
        for input_id in _printed_unconditionally(j, step, designation):
            if input_id not in fields:
                continue
            checked += 1
            field = fields[input_id]
            assert field["required"], (city, step.id, designation, input_id)
            inp = next(i for i in step.inputs if i.id == input_id)
            if not inp.required:  # the law's "optional": the form says why it is needed here
                assert field["needed_why"].startswith("Needed to issue “"), (step.id, input_id)
    assert checked  # the shipped packs print some of their inputs


# The law's facts, from the packs' documents: (city, step, designation, input, needed: "always" | decisions).
NEEDS = [
    (
        "battle-lake-mn",
        "declare",
        "dangerous",
        "declarant_telephone",
        "always",
    ),  # the (C)(2)(a) notice, later
    ("battle-lake-mn", "declare", "potentially_dangerous", "declarant_telephone", "always"),  # (B)(2)(a)
    (
        "battle-lake-mn",
        "decide_appeal",
        "dangerous",
        "reasons",
        "always",
    ),  # upheld or not, the letter says why
    ("battle-lake-mn", "confirm_or_rescind", "dangerous", "resolution", "always"),
    ("battle-lake-mn", "issue_certificate", "dangerous", "number", "always"),
    ("battle-lake-mn", "seize", "potentially_dangerous", "place", "always"),
    ("battle-lake-mn", "hold_hearing", "dangerous", "closed_on", None),  # the day it was held stands for it
    ("battle-lake-mn", "serve_notice", "dangerous", "received_on", None),
    ("tracy-mn", "decide_appeal", "dangerous", "reasons", "always"),
    ("tracy-mn", "decide_classification_appeal", "vicious", "reasons", "always"),
    ("tracy-mn", "decide_impoundment", "vicious", "conditions", {"release_conditionally"}),
]


@pytest.mark.parametrize(("city", "step_id", "designation", "input_id", "needed"), NEEDS)
def test_what_each_document_needs_of_its_form(city, step_id, designation, input_id, needed):
    j = library().get(city)
    step = j.step(step_id, timezone.localdate()).for_designation(designation)
    state = CaseState(designation, timezone.localdate() - dt.timedelta(days=30), ())
    needs = document_needs(j, step, state, _noon(j))
    field = next(f for f in fields_for(j, step, state=state, at=_noon(j)) if f["id"] == input_id)
    if needed is None:
        assert input_id not in needs and not field["required"]
    elif needed == "always":
        assert needs[input_id].outcomes is None and field["required"]
        assert "Needed to issue “" in field["needed_why"]
    else:
        assert needs[input_id].outcomes == needed and not field["required"]
        assert "Release conditionally" in field["required_if"]


def test_a_decision_that_needs_a_value_for_some_outcomes_is_refused_only_for_those():
    j = library().get("tracy-mn")
    step = j.step("decide_impoundment", timezone.localdate())
    needs = {"conditions": (frozenset({"release_conditionally"}), "Needed to issue the decision.")}
    chosen = {i.id: "" for i in step.inputs}

    class Post(dict):
        def getlist(self, key):
            return [self[key]] if self.get(key) else []

    outcome = next(i for i in step.inputs if i.kind == "outcome")
    other = next(c for c in outcome.choices if c != "release_conditionally")
    base = {f"in-{k}": v for k, v in chosen.items()}
    for i in step.inputs:
        if i.kind == "date":
            base[f"in-{i.id}"] = timezone.localdate().isoformat()
    with pytest.raises(FormProblem) as refused:
        read_inputs(
            step, Post(base, **{f"in-{outcome.id}": "release_conditionally"}), {}, tz=j.tz, needs=needs
        )
    assert refused.value.field == "conditions" and refused.value.message == "Needed to issue the decision."
    try:
        read_inputs(step, Post(base, **{f"in-{outcome.id}": other}), {}, tz=j.tz, needs=needs)
    except FormProblem as problem:
        assert problem.field != "conditions"


@pytest.fixture
def heard(staff):
    s = Story(staff, "battle-lake-mn", SERIOUS)
    s.step("declare", "officer", 0, designation="dangerous", basis="Serious bite")
    s.step(
        "serve_notice", "officer", 1, served_on=on(1), method="personal", served_owner="O", received_on=on(1)
    )
    s.step("receive_hearing_request", "clerk", 5, received_on=on(5))
    return s


def test_the_decision_without_its_reasons_is_refused_on_the_field_and_nothing_is_recorded(heard, staff):
    s = heard
    s.step(
        "schedule_hearing",
        "clerk",
        6,
        hearing_at=at(15, 14).isoformat(),
        place="City Hall",
        hearing_officer=str(staff["hearing"].pk),
    )
    s.step("hold_hearing", "hearing", 15, held_on=on(15), owner_present=True)
    case = s.case
    case.refresh_from_db()
    events = Event.objects.filter(case=case).count()
    client = client_for(staff["hearing"])
    form = client.get(f"/cases/{case.number}/act/decide_appeal").content.decode()
    label = re.search(r'<label for="in-reasons">(.*?)</label>', form, flags=re.S).group(1)
    assert "(optional)" not in label and "(required)" in label
    assert "Needed to issue “Decision of the hearing officer”" in form
    response = client.post(
        f"/cases/{case.number}/act/decide_appeal",
        {"version": case.version, "in-outcome": "upheld", "in-reasons": ""},
    )
    assert response.status_code == 400
    assert response.context["errors"]["reasons"].startswith(
        "Needed to issue “Decision of the hearing officer”"
    )
    assert "Nothing was recorded" in response.content.decode()
    assert Event.objects.filter(case=case).count() == events


# ------------------------------------------------------------------ b. a telephone is a telephone field


@pytest.mark.parametrize("city", (*SHIPPED, "mn-statute"))
def test_every_telephone_input_of_the_packs_is_a_telephone_field(city):
    seen = 0
    for _j, step, _designation in every_step(city):
        for inp in step.inputs:
            if inp.id.endswith("telephone"):
                seen += 1
                assert inp.kind == "telephone", (city, step.id, inp.id)
    assert seen


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("218-555-0150", "218-555-0150"),
        ("(218) 555-0150 ext. 12", "(218) 555-0150 ext. 12"),
        ("+1 218  555 0150", "+1 218 555 0150"),
        ("555-0150", "555-0150"),
        ("call the office", None),
        ("12", None),
        ("218-555-0150, ask for Kim", None),
        ("1" * 16, None),
        ("2" * 41, None),
    ],
)
def test_the_telephone_rule(typed, kept):
    if kept is None:
        with pytest.raises(InputError):
            clean_telephone(typed, "inputs.telephone")
    else:
        assert clean_telephone(typed, "inputs.telephone") == kept


def test_the_declaration_form_asks_for_a_telephone_and_refuses_anything_else(officer):
    case = record_bite(officer)
    client = client_for(officer)
    html = client.get(f"/cases/{case.number}/act/declare").content.decode()
    assert re.search(r'<input type="tel" id="in-declarant_telephone"[^>]* required', html)
    assert '<textarea id="in-declarant_telephone"' not in html
    response = client.post(
        f"/cases/{case.number}/act/declare",
        {
            "version": case.version,
            "in-designation": "potentially_dangerous",
            "in-basis": "Bit a jogger",
            "in-declarant_telephone": "ask the front desk",
        },
    )
    assert response.status_code == 400
    assert response.context["errors"]["declarant_telephone"].startswith("Write a telephone number, e.g.")
    assert not case.events.filter(act="declare").exists()
    # left empty: refused on the field, with the document that prints it
    empty = client.post(
        f"/cases/{case.number}/act/declare",
        {"version": case.version, "in-designation": "potentially_dangerous", "in-basis": "Bit a jogger"},
    )
    assert empty.status_code == 400
    assert "Needed to issue “" in empty.context["errors"]["declarant_telephone"]
    assert not case.events.filter(act="declare").exists()


def test_the_api_holds_a_telephone_to_the_same_rule(officer):
    case = record_bite(officer)
    response = client_for(officer).post(
        f"/api/v1/cases/{case.number}/steps/declare",
        json.dumps(
            {
                "version": case.version,
                "inputs": {
                    "designation": "potentially_dangerous",
                    "basis": "Bit a jogger",
                    "declarant_telephone": "x" * 5000,
                },
            }
        ),
        content_type="application/json",
    )
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "inputs.declarant_telephone"


@pytest.mark.parametrize("city", SHIPPED)
def test_short_texts_have_short_limits_and_one_line_fields(city):
    for j, step, designation in every_step(city):
        state = CaseState(designation, timezone.localdate() - dt.timedelta(days=30), ())
        for f in fields_for(j, step, state=state, at=_noon(j)):
            inp = next(i for i in step.inputs if i.id == f["id"])
            if inp.id in ("served_owner", "place", "contact", "number", "resolution"):
                assert inp.kind == "text" and inp.text_limit <= 300, (step.id, inp.id)
                assert f["short"]


# ------------------------------------------------------------------ c, d, e. proof


@pytest.mark.parametrize("kind", sorted(FIELDS))
def test_every_paper_proof_form_has_a_file_field_that_says_what_to_attach(kind):
    class Cond:
        label = "Proof"

    Cond.kind = kind
    specs = paper_specs(Cond)
    files = [s for s in specs if s[0] == "files"]
    assert len(files) == 1
    label = str(files[0][1])
    assert label if kind == "photos" else label.startswith("A scan or photo of the paper")


def test_a_microchip_on_paper_needs_its_scan(make_staff_user):
    officer = make_staff_user("animal_control_officer", cities=("tracy-mn",))
    case = record_bite(officer, city="tracy-mn")
    declare(case, officer, designation="dangerous")
    case.refresh_from_db()
    from dogcase.proofs import conditions

    chip = next(c for c in conditions.conditions(case) if c.kind == "microchip")
    url = f"/staff/proofs/cases/{case.number}/{chip.id}/record"
    client = client_for(officer)
    html = client.get(url).content.decode()
    assert 'type="file"' in html and "A scan or photo of the paper" in html
    data = {"microchip_number": "985112003456789", "microchip_manufacturer": "HomeAgain"}
    refused = client.post(url, data)
    assert refused.status_code == 400 and "Attach a scan or photo of the paper" in refused.content.decode()
    assert not ProofSubmission.objects.filter(case=case).exists()
    done = client.post(url, {**data, "files": [pdf("chip-record.pdf")]})
    assert done.status_code == 302
    proof = ProofSubmission.objects.get(case=case)
    page = client.get(f"/staff/proofs/{proof.pk}/").content.decode()
    assert "chip-record.pdf" in page and "PDF 1" not in page


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("vet record.pdf", "vet record.pdf"),
        ("C:\\Users\\me\\scan.pdf", "scan.pdf"),
        ("../../etc/passwd", "passwd"),
        ("a\u202egnp.exe", "agnp.exe"),
        ("   ", "PDF"),
        ("x" * 200 + ".jpeg", "x" * 74 + "….jpeg"),
    ],
)
def test_a_files_name_is_shown_sanitised(name, shown):
    assert shown_file_name(name, "application/pdf") == shown


def test_proof_files_show_their_names_to_staff_and_owner(make_staff_user, clerk):
    from dogcase.proofs import conditions, services

    officer = make_staff_user("animal_control_officer", cities=("tracy-mn",))
    case = record_bite(officer, city="tracy-mn")
    declare(case, officer, designation="dangerous")
    case.refresh_from_db()
    cover = next(c for c in conditions.conditions(case) if c.kind == "coverage")
    person = owner_of(case)
    proof = services.submit(
        case, cover.id, data=coverage_data(), uploads=[pdf("North Star policy 2026.pdf")], person=person
    )
    staff_page = client_for(officer).get(f"/staff/proofs/{proof.pk}/").content.decode()
    assert "North Star policy 2026.pdf" in staff_page and "PDF 1" not in staff_page
    from django.test import RequestFactory

    from dogcase.proofs.owner_views import proof_list

    owner_page = proof_list(RequestFactory().get("/"), case, person).content.decode()
    assert "North Star policy 2026.pdf" in owner_page


def test_proof_to_review_is_one_queue_with_its_count(make_staff_user):
    from dogcase.proofs import conditions, services

    officer = make_staff_user("animal_control_officer", cities=("tracy-mn",))
    clerk = make_staff_user("city_clerk", username="clerk-queue", cities=("tracy-mn",))
    case = record_bite(officer, city="tracy-mn")
    declare(case, officer, designation="dangerous")
    case.refresh_from_db()
    person = owner_of(case)
    for cond in conditions.conditions(case):
        if cond.kind in ("photos", "document"):
            services.submit(case, cond.id, data={}, uploads=[png()], person=person)
    waiting = ProofSubmission.objects.filter(status="submitted").count()
    assert waiting
    html = client_for(clerk).get("/").content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    assert text.count("Proof to review") == 2  # the count at the top and the one list
    assert f"{waiting} Proof to review" in text and f"Proof to review ({waiting})" in text
    assert "Proof sent by owners" not in text


# ------------------------------------------------------------------ f. the last allowed day


def test_a_hearing_date_outside_the_14_days_names_the_last_allowed_day(officer, clerk, hearing_officer):
    from dogcase.cases import acts
    from dogcase.law import clock

    now = acts.now()
    case = record_bite(officer, occurred_at=now - dt.timedelta(days=3))
    declare(case, officer, designation="dangerous", at=now - dt.timedelta(days=2))
    yesterday = timezone.localdate(now) - dt.timedelta(days=1)
    take(
        case,
        "serve_notice",
        officer,
        # noon yesterday in the city: "an hour before yesterday this time" is the day before in the first hour
        # of a day (and served_on may not be after the day it is recorded)
        at=timezone.make_aware(dt.datetime.combine(yesterday, dt.time(12))),
        served_on=yesterday.isoformat(),
        method="personal",
        served_owner="Owner",
        received_on=yesterday.isoformat(),
    )
    take(
        case,
        "receive_hearing_request",
        clerk,
        at=now - dt.timedelta(hours=1),
        received_on=yesterday.isoformat(),
    )
    case.refresh_from_db()
    last = case.obligations.get(deadline_id="city.hold_hearing").due_date
    late = dt.datetime.combine(last + dt.timedelta(days=3), dt.time(14))
    response = client_for(clerk).post(
        f"/cases/{case.number}/act/schedule_hearing",
        {
            "version": case.version,
            "in-hearing_at": late.strftime("%Y-%m-%dT%H:%M"),
            "in-place": "City Hall",
            "in-hearing_officer": str(hearing_officer.pk),
        },
    )
    assert response.status_code == 409
    (refusal,) = response.context["refusals"]
    # the pack's own words, then the day in words with the citation of the 14 days
    assert f"The last allowed day is {clock.format_date(last)} (" in refusal["reason"]
    assert "§ 90.15 (C)(3)" in refusal["reason"] and refusal["citation"] == "§ 90.15 (I)(1)"
    html = response.content.decode()
    assert f"The last allowed day is {clock.format_date(last)}" in html
    assert not case.events.filter(act="schedule_hearing").exists()


# ------------------------------------------------------------------ g. the owner's hearing request


def _quoted_in_ordinance(text: str) -> bool:
    squeeze = " ".join(ORDINANCE.read_text().split())
    return " ".join(text.split()) in squeeze


@pytest.mark.parametrize(
    ("designation", "citation"),
    [("potentially_dangerous", "§ 90.15 (B)(2)(f)"), ("dangerous", "§ 90.15 (C)(3)")],
)
def test_battle_lake_tells_the_owner_the_hearing_costs_from_its_text(designation, citation):
    j = library().get("battle-lake-mn")
    step = j.step("receive_hearing_request", timezone.localdate())
    (cost,) = costs_before_filing(j, step, designation, timezone.localdate())
    assert cost["citation"] == citation
    assert "$1,000" in cost["words"] and "$1,000" in cost["text"]
    assert _quoted_in_ordinance(cost["text"])


@pytest.mark.parametrize("city", ["tracy-mn", "mn-statute"])
def test_no_cost_is_said_where_the_packs_text_does_not_say_it(city):
    j = library().get(city)
    for _j, step, designation in every_step(city):
        if step.filed_by_owner:
            assert costs_before_filing(j, step, designation, timezone.localdate()) == []


@pytest.mark.parametrize("city", (*SHIPPED, "mn-statute"))
def test_every_hearing_request_the_owner_files_takes_the_owners_reasons(city):
    found = 0
    for _j, step, _designation in every_step(city):
        if step.filed_by_owner and step.act == "receive_hearing_request":
            reasons = [i for i in step.inputs if i.id == "reasons"]
            assert reasons and reasons[0].kind == "text" and not reasons[0].required, (city, step.id)
            found += 1
    assert found


def test_the_owner_files_a_hearing_request_with_reasons_after_reading_the_costs(staff):
    from tests.owners.conftest import served_recently
    from tests.owners.test_portal import issue, sign_in

    def story(city, day=0):
        return Story(staff, city, SERIOUS, day)

    s = served_recently(story, designation="dangerous")
    client = Client()
    sign_in(client, issue(s))
    url = f"/owner/cases/{s.case.number}/file/receive_hearing_request"
    form = client.get(url).content.decode()
    costs = form.index('id="costs"')
    assert costs < form.index('name="in-reasons"') and costs < form.index('id="send"')
    assert "up to $1,000, will be your responsibility" in form and "§ 90.15 (C)(3)" in form
    response = client.post(
        url,
        {
            "idempotency_key": "r1",
            "version": s.case.version,
            "in-reasons": "My dog was provoked by the jogger.",
        },
    )
    assert response.status_code == 302
    event = s.case.events.get(act="receive_hearing_request")
    assert event.data["inputs"]["reasons"] == "My dog was provoked by the jogger."
