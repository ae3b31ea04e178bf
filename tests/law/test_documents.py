"""Documents the law requires, as pack data (docs/law-packs.md, "Documents"): the `documents:` section read and
checked, layered city over state with the state floor, `when:` sections, the sources vocabulary, and the
step's `contents` check fed by what the documents issued contain."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from dogcase.law import Actor, CaseState, InputError, PackError, TakenStep, library
from dogcase.law.documents import SOURCES, describe_source, placeholders
from dogcase.law.loader import PACKS_DIR, Library

CHICAGO = ZoneInfo("America/Chicago")

STATE = """\
format: 1
jurisdiction:
  id: north-state
  name: State of North (invented)
  kind: state
  timezone: America/Chicago
  case_prefix: NS
  source: {title: "North Statutes ch. 9 (invented for tests)"}
roles:
  - {id: warden, label: Dog warden, staff: [animal_control_officer]}
designations:
  - {id: menacing, label: Menacing dog, defined_by: "9.1"}
calendar:
  holidays:
    - id: founders_day
      name: Founders Day
      rule: {fixed: {month: 3, day: 3}}
      observed: weekend_shift
      provision: "9.9"
provisions:
  - id: "9.1"
    citation: "N.S. 9.1"
    text: "A menacing dog is one that, unprovoked, bites a person."
    ground:
      designation: menacing
      when: {all: [bit, {not: provoked}, {fact: victim, is: human}]}
  - id: "9.3"
    citation: "N.S. 9.3"
    text: "The owner may appeal within 10 days of the notice."
    deadline:
      id: owner.request_hearing
      who: owner
      what: request a hearing
      trigger: notice_date
      period: {amount: 10, unit: calendar_days}
      counting: mn_645_15
  - id: "9.5"
    citation: "N.S. 9.5"
    text: "The notice states the dog, the right to appeal within 10 days and, if the dog was seized, where it is held."
    notice:
      id: menacing_notice
      for: [menacing]
      in_writing: true
      service_methods: [personal]
      elements:
        - {id: dog, text: "The dog"}
        - {id: appeal, text: "The right to appeal within 10 days"}
        - {id: seized, text: "Where the seized dog is held", when: {done: seize}}
  - id: "9.9"
    citation: "N.S. 9.9"
    text: "Founders Day is a holiday."
procedure:
  - id: declare
    label: "Declare the dog menacing"
    act: declare
    opens_case: true
    for: [menacing]
    provisions: ["9.1"]
    roles: [warden]
    reading: "The statute names no one; the warden declares."
    inputs:
      - {id: designation, kind: designation, label: "Designation"}
    records: [declaration]
  - id: seize
    label: "Seize the dog"
    act: seize
    for: [menacing]
    roles: [warden]
    reading: "The statute names no one; the warden seizes."
    inputs:
      - {id: place, kind: text, label: "Where the dog is held", required: false}
    records: [seizure]
  - id: serve_notice
    label: "Serve the notice"
    act: serve_notice
    for: [menacing]
    documents: [menacing_notice]
    roles: [warden]
    reading: "The statute names no one; the warden serves."
    requires:
      - {done: declare}
    inputs:
      - {id: served_on, kind: date, label: "Date of the notice", records: notice_date}
documents:
  - id: menacing_letter
    title: "Notice: your dog is a menacing dog"
    issued_by: [serve_notice]
    notices: [menacing_notice]
    provisions: ["9.5"]
    sections:
      - {element: dog, heading: "Your dog", text: "{dog.description}"}
      - {element: appeal, text: "You may appeal by {deadline.owner.request_hearing}."}
      - {element: seized, text: "Your dog is held at {seizure.place}."}
      - {text: "The warden took your dog on {seizure.date}.", when: {done: seize}}
"""

CITY = """\
format: 1
jurisdiction:
  id: south-city
  name: City of South (invented)
  kind: city
  layer_over: north-state
  timezone: America/Chicago
  case_prefix: SC
  source: {title: "South City Code § 1 (invented for tests)"}
  offices:
    clerk: {name: "City Clerk", address: null, telephone: "555-0100"}
  letterhead: {name: "City of South", address: "1 Main Street, South"}
provisions:
  - id: "1"
    citation: "South City Code § 1"
    text: "The city's notice states how to reach the City Clerk."
    notice:
      id: city_notice
      for: [menacing]
      in_writing: true
      service_methods: [personal]
      elements:
        - {id: clerk, text: "Where to file an appeal"}
procedure: []
documents:
  - id: menacing_letter
    title: "Notice from the City of South: your dog is a menacing dog"
    issued_by: [serve_notice]
    notices: [city_notice]
    sections:
      - {element: "menacing_notice.dog", heading: "Your dog", text: "{dog.name}: {dog.description}"}
      - {element: clerk, text: "File an appeal with the City Clerk, {office.clerk.address}."}
"""


def write(folder: Path, state: str = STATE, city: str | None = CITY) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(PACKS_DIR / "facts.yaml", folder / "facts.yaml")
    for name, text in (("north-state", state), ("south-city", city)):
        if text is None:
            continue
        (folder / name).mkdir(exist_ok=True)
        (folder / name / "pack.yaml").write_text(text, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    return Library(write(tmp_path_factory.mktemp("docs") / "packs"))


DAY = dt.date(2026, 3, 2)


def noon(day: str) -> dt.datetime:
    return dt.datetime.combine(dt.date.fromisoformat(day), dt.time(12), tzinfo=CHICAGO)


WARDEN = Actor("warden", frozenset({"warden"}))


def take(j, state: CaseState, step: str, day: str, inputs: dict) -> CaseState:
    at = noon(day)
    cleaned = j.validate_inputs(step, state, inputs, at)
    verdict = j.check_step(step, state, WARDEN, at, cleaned)
    assert verdict.allowed, [r.reason for r in verdict.refusals]
    designation = cleaned.get("designation", state.designation)
    taken = TakenStep(step, at, WARDEN.id, cleaned.get("outcome"), j.events_of(step, at, cleaned), cleaned)
    return CaseState(designation, state.incident_date, (*state.taken, taken), state.settings)


def declared(j) -> CaseState:
    return take(j, CaseState(None, DAY), "declare", "2026-03-02", {"designation": "menacing"})


# ------------------------------------------------------------------------------------------ layering


def test_the_state_document_states_each_element_of_its_notice(lib):
    j = lib.get("north-state")
    (doc,) = j.document_types("serve_notice", "menacing", DAY)
    assert doc.id == "menacing_letter" and doc.layer == "state"
    assert [s.element for s in doc.sections] == [
        "north-state:9.5/dog",
        "north-state:9.5/appeal",
        "north-state:9.5/seized",
        None,
    ]
    dog = doc.sections[0]
    assert (dog.element_text, dog.citation["citation"], dog.sources) == (
        "The dog",
        "N.S. 9.5",
        ("dog.description",),
    )
    assert [p["citation"] for p in doc.provisions] == ["N.S. 9.5"]
    assert j.document_warnings() == []


def test_a_city_document_missing_a_state_element_gets_the_states_wording_and_a_warning(lib):
    j = lib.get("south-city")
    (doc,) = j.document_types("serve_notice", "menacing", DAY)
    assert doc.title.startswith("Notice from the City of South")  # the city's document replaces the state's
    rows = [(s.element, s.layer, s.appended) for s in doc.sections]
    assert rows == [
        ("north-state:9.5/dog", "city", False),  # the city states the state's element itself
        ("south-city:1/clerk", "city", False),
        ("north-state:9.5/appeal", "state", True),  # the floor: the state's wording appended
        ("north-state:9.5/seized", "state", True),
    ]
    warnings = [w["warning"] for w in j.document_warnings()]
    assert any("The right to appeal within 10 days" in w and "appended" in w for w in warnings)
    assert any("Where the seized dog is held" in w for w in warnings)
    # every required element of every layer's notice is stated after layering
    required = {r["value"] for r in doc.required}
    assert required == {
        "north-state:9.5/dog",
        "north-state:9.5/appeal",
        "north-state:9.5/seized",
        "south-city:1/clerk",
    }
    assert required <= {e for s in doc.sections for e in s.elements}
    # and the law check lists them
    assert any("appended" in w["warning"] for w in lib.warnings() if w["pack"] == "south-city")


def test_a_city_section_may_state_a_city_and_a_state_element_at_once(tmp_path):
    city = CITY.replace(
        '{element: clerk, text: "File an appeal with the City Clerk, {office.clerk.address}."}',
        '{element: [clerk, "menacing_notice.appeal"], text: "Appeal by {deadline.owner.request_hearing} to the '
        'City Clerk, {office.clerk.address}."}',
    )
    j = Library(write(tmp_path / "packs", city=city)).get("south-city")
    (doc,) = j.document_types("serve_notice", "menacing", DAY)
    both = doc.sections[1]
    assert (
        both.elements == ("south-city:1/clerk", "north-state:9.5/appeal")
        and both.element == "south-city:1/clerk"
    )
    assert [s.element for s in doc.sections if s.appended] == ["north-state:9.5/seized"]


def test_a_document_that_leaves_out_an_element_of_its_own_notice_is_refused(tmp_path):
    state = STATE.replace(
        '      - {element: appeal, text: "You may appeal by {deadline.owner.request_hearing}."}\n', ""
    )
    with pytest.raises(PackError) as caught:
        Library(write(tmp_path / "packs", state=state, city=None))
    assert "The right to appeal within 10 days" in caught.value.message
    assert caught.value.file.endswith("north-state/pack.yaml")


# ------------------------------------------------------------------------------------------ refusals at load

BROKEN = [
    pytest.param("{dog.description}", "{dog.colour}", "unknown source {dog.colour}", id="unknown source"),
    pytest.param(
        "{deadline.owner.request_hearing}",
        "{deadline.owner.appeal}",
        "no deadline 'owner.appeal'",
        id="unknown deadline",
    ),
    pytest.param("{seizure.place}", "{office.clerk.address}", "no office 'clerk'", id="unknown office"),
    pytest.param(
        "{seizure.place}",
        "{input.where}",
        "no step that issues the document has an input 'where'",
        id="unknown input",
    ),
    pytest.param(
        "{element: dog,", "{element: breed,", "element 'breed' is not an element", id="unknown element"
    ),
    pytest.param(
        "issued_by: [serve_notice]",
        "issued_by: [serve_letter]",
        "issued_by names unknown step",
        id="unknown step",
    ),
    pytest.param(
        "notices: [menacing_notice]", "notices: [warning]", "unknown notice 'warning'", id="unknown notice"
    ),
    pytest.param(
        "when: {done: seize}}", "when: {done: impound}}", "unknown step 'impound'", id="unknown step in when"
    ),
]


@pytest.mark.parametrize(("old", "new", "message"), BROKEN)
def test_a_broken_document_is_refused_with_its_file_and_line(tmp_path, old, new, message):
    assert old in STATE
    text = STATE.replace(old, new, 1)
    with pytest.raises(PackError) as caught:
        Library(write(tmp_path / "packs", state=text, city=None))
    assert message in caught.value.message, caught.value.message
    assert caught.value.file.endswith("north-state/pack.yaml")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if new in row)
    assert caught.value.line is not None and abs(caught.value.line - line) <= 8, (caught.value.line, line)


def test_the_inputs_of_the_issuing_step_are_sources(tmp_path):
    text = STATE.replace("{seizure.place}", "{input.served_on}", 1)
    j = Library(write(tmp_path / "packs", state=text, city=None)).get("north-state")
    (doc,) = j.document_types("serve_notice", "menacing", DAY)
    assert doc.sections[2].sources == ("input.served_on",)


def test_the_sources_vocabulary_says_what_each_name_is_and_where_to_supply_it():
    assert placeholders("On {incident.date}, at {incident.place}: {incident.date}") == (
        "incident.date",
        "incident.place",
    )
    for name, (what, where) in SOURCES.items():
        assert what and where, name
    assert describe_source("declarant.telephone") == (
        "the telephone number of the person who made the declaration",
        "record it on the declaration",
    )
    assert describe_source("deadline.owner.request_hearing")[0].startswith(
        "the date the time limit 'owner.request_hearing' ends for this case (when it cannot be known yet"
    )


# ------------------------------------------------------------------------------------------ offices


def test_an_office_address_not_given_is_listed_and_named_where_to_supply_it(lib):
    j = lib.get("south-city")
    assert j.offices["clerk"] == {
        "id": "clerk",
        "name": "City Clerk",
        "address": None,
        "telephone": "555-0100",
    }
    assert j.letterhead == {"name": "City of South", "address": "1 Main Street, South", "telephone": None}
    assert j.pack_source("office.clerk.address") is None
    assert j.pack_source("office.clerk.telephone") == "555-0100"
    assert j.pack_source("city.name") == "City of South"
    assert j.missing_source("office.clerk.address") == (
        "the City Clerk's address — supply it on the City settings page, or in the city's law pack (jurisdiction.offices)"
    )
    assert any("offices.clerk: address not given" in w["warning"] for w in j.document_warnings())


def test_battle_lake_leaves_the_city_clerks_address_to_the_city():
    j = library().get("battle-lake-mn")
    assert j.offices["city_clerk_treasurer"]["address"] is None
    assert j.missing_source("office.city_clerk_treasurer.address") == (
        "the City Clerk/Treasurer's address — supply it on the City settings page, or in the city's law pack (jurisdiction.offices)"
    )


# ------------------------------------------------------------------------------------------ when


def test_a_section_applies_only_when_its_condition_holds(lib):
    j = lib.get("north-state")
    state = declared(j)
    (doc,) = j.document_types("serve_notice", "menacing", DAY)
    seized_section, took_section = doc.sections[2], doc.sections[3]
    assert seized_section.when is not None  # the element's own condition ({done: seize})
    before = j.applicable_sections(doc, state, noon("2026-03-03"))
    assert seized_section not in before and took_section not in before
    assert j.elements_contained([doc.id], state, noon("2026-03-03")) == [
        "north-state:9.5/dog",
        "north-state:9.5/appeal",
    ]
    seized = take(j, state, "seize", "2026-03-03", {"place": "the city pound"})
    after = j.applicable_sections(doc, seized, noon("2026-03-04"))
    assert seized_section in after and took_section in after


# ------------------------------------------------------------------------------------------ the contents check


def test_the_step_checks_what_the_documents_issued_contain(lib):
    j = lib.get("south-city")
    state = declared(j)
    at = noon("2026-03-03")
    step = j.case_step("serve_notice", state, at)
    contents = next(i for i in step.inputs if i.id == "contents")
    assert contents.kind == "document"
    issued = [d.id for d in j.document_types("serve_notice", "menacing", DAY)]
    given = j.elements_contained(issued, state, at)
    assert sorted(given) == sorted(j.required_elements("serve_notice", state, at))
    assert set(given) == {"north-state:9.5/dog", "north-state:9.5/appeal", "south-city:1/clerk"}
    cleaned = j.validate_inputs("serve_notice", state, {"served_on": "2026-03-03", "contents": given}, at)
    assert set(cleaned["contents"]) == set(given)
    # a document without the state's element (of any layer) is refused, naming it and its clause
    short = [v for v in given if not v.endswith("/appeal")]
    with pytest.raises(InputError) as caught:
        j.validate_inputs("serve_notice", state, {"served_on": "2026-03-03", "contents": short}, at)
    assert caught.value.field == "inputs.contents"
    assert "The right to appeal within 10 days" in caught.value.rule and "N.S. 9.5" in caught.value.rule
    # nothing given: the check is required
    with pytest.raises(InputError):
        j.validate_inputs("serve_notice", state, {"served_on": "2026-03-03"}, at)


# ------------------------------------------------------------------------------------------ the shipped packs


def test_the_notice_elements_input_kind_is_gone(tmp_path):
    text = STATE.replace(
        '      - {id: served_on, kind: date, label: "Date of the notice", records: notice_date}\n',
        '      - {id: served_on, kind: date, label: "Date of the notice", records: notice_date}\n'
        '      - {id: ticks, kind: notice_elements, label: "Tick each element"}\n',
    )
    with pytest.raises(PackError) as caught:
        Library(write(tmp_path / "packs", state=text, city=None))
    assert "notice_elements" in caught.value.message


# (jurisdiction, step, designation, documents issued): each required element of every layer's notice the step
# serves is stated by a section of the documents it issues (or their attachments)
SHIPPED_DOCUMENTS = [
    ("mn-statute", "serve_notice", "dangerous", ["dangerous_declaration_notice"]),  # 347.541 subd. 3
    ("mn-statute", "serve_destruction_notice", None, ["intended_destruction_notice"]),  # 347.56
    ("mn-statute", "serve_destruction_notice", "dangerous", ["intended_destruction_notice"]),
    ("battle-lake-mn", "serve_notice", "potentially_dangerous", ["pdd_declaration_notice"]),  # (B)(2)
    ("battle-lake-mn", "serve_notice", "dangerous", ["dangerous_declaration_notice"]),  # (C)(2) over 347.541
    ("battle-lake-mn", "schedule_hearing", "potentially_dangerous", ["hearing_notice"]),  # (I)(2)
    ("battle-lake-mn", "schedule_hearing", "dangerous", ["hearing_notice"]),
    ("battle-lake-mn", "decide_appeal", "potentially_dangerous", ["hearing_officer_decision"]),  # (B)(2)(g)
    ("battle-lake-mn", "decide_appeal", "dangerous", ["hearing_officer_decision"]),  # (C)(3)
    ("battle-lake-mn", "recommend", "dangerous", ["hearing_officer_recommendation"]),  # (I)(4)
    ("battle-lake-mn", "confirm_or_rescind", "potentially_dangerous", ["council_decision"]),  # (I)(4)
    ("battle-lake-mn", "issue_certificate", "dangerous", ["certificate_of_registration"]),  # (C)(5)
    ("battle-lake-mn", "seize", "dangerous", ["seizure_notice"]),  # (J)
    ("battle-lake-mn", "serve_destruction_notice", "dangerous", ["k_destruction_notice"]),  # (K) over 347.56
    ("battle-lake-mn", "serve_destruction_notice", None, ["intended_destruction_notice"]),  # 347.56 alone
    ("battle-lake-mn", "schedule_destruction_hearing", "dangerous", ["hearing_notice"]),
    ("battle-lake-mn", "confirm_or_rescind_destruction", "dangerous", ["council_destruction_decision"]),
    ("tracy-mn", "notify_classification", "vicious", ["vicious_classification_notice"]),  # Subd 3
    ("tracy-mn", "post_notice_owner_not_located", "vicious", ["vicious_classification_posted_notice"]),
    ("tracy-mn", "receive_classification_appeal", "vicious", ["classification_hearing_notice"]),
    ("tracy-mn", "decide_classification_appeal", "vicious", ["classification_decision"]),  # Subd 4.C
    ("tracy-mn", "notify_impoundment", "vicious", ["impoundment_notice"]),  # Subd 7
    ("tracy-mn", "receive_impoundment_appeal", "vicious", ["impoundment_hearing_notice"]),
    ("tracy-mn", "decide_impoundment", "vicious", ["impoundment_decision"]),  # Subd 8.C
    ("tracy-mn", "serve_notice", "dangerous", ["dangerous_declaration_notice"]),  # the state's, in Tracy
]


@pytest.mark.parametrize(("jurisdiction", "step", "designation", "issued"), SHIPPED_DOCUMENTS)
def test_a_shipped_document_states_every_element_the_law_requires(jurisdiction, step, designation, issued):
    j = library().get(jurisdiction)
    day = dt.date(2026, 6, 1)
    docs = j.document_types(step, designation, day)
    assert [d.id for d in docs] == issued
    required = set()
    for doc in docs:
        for page in j.document_pages(doc.id, day):
            required |= {r["value"] for r in page.required}
    stated = {
        e for doc in docs for page in j.document_pages(doc.id, day) for s in page.sections for e in s.elements
    }
    assert required and required <= stated
    # the step's own check: every element it demands of a case with this designation is stated
    demanded = {
        c["value"] for c in j.input_choices(step, CaseState(designation, day), _noon(day)).get("contents", [])
    }
    assert demanded <= stated, sorted(demanded - stated)
    # each element's words and citation are the law's
    for doc in docs:
        for page in j.document_pages(doc.id, day):
            for section in page.sections:
                if section.element:
                    assert section.element_text and section.citation["citation"], (page.id, section.element)


def _noon(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(12), tzinfo=CHICAGO)


@pytest.mark.parametrize("jurisdiction", ["mn-statute", "battle-lake-mn", "tracy-mn"])
def test_every_notice_a_shipped_step_serves_is_written_by_a_document(jurisdiction):
    warnings = [w["warning"] for w in library().get(jurisdiction).document_warnings()]
    assert [w for w in warnings if "no document it issues writes it" in w] == []


def test_battle_lakes_destruction_notice_stands_in_for_the_states_where_it_reaches_the_case():
    j = library().get("battle-lake-mn")
    day = dt.date(2026, 6, 1)
    (k,) = j.document_types("serve_destruction_notice", "dangerous", day)
    assert k.id == "k_destruction_notice" and set(k.notices) == {"destruction_notice", "intended_destruction"}
    # the state's three elements of its 347.56 notice are stated by the city's own sections, not appended
    state_values = {v for s in k.sections for v in s.elements if v.startswith("mn-statute:")}
    assert state_values == {
        "mn-statute:347.56.notice/incident",
        "mn-statute:347.56.notice/intended_destruction",
        "mn-statute:347.56.notice/time_to_request",
    }
    assert not any(s.appended for s in k.sections)
    # a dog never declared: (K) does not reach it, the state's notice is issued
    (state,) = j.document_types("serve_destruction_notice", None, day)
    assert state.id == "intended_destruction_notice" and state.layer == "state"


def test_battle_lakes_dangerous_notice_replaces_the_states_and_states_its_six_elements():
    j = library().get("battle-lake-mn")
    day = dt.date(2026, 6, 1)
    (doc,) = j.document_types("serve_notice", "dangerous", day)
    assert doc.layer == "city" and doc.title == "Notice: your dog has been declared a dangerous dog"
    state = {v.rsplit("/", 1)[1] for s in doc.sections for v in s.elements if v.startswith("mn-statute:")}
    assert state == {
        "dog_and_circumstances",
        "hearing_right",
        "comply_pending_appeal",
        "comply_after_affirmance",
        "hearing_request_form",
        "costs_of_care",
    }
    assert [p.id for p in j.document_pages(doc.id, day)] == [doc.id, "dangerous_hearing_request_form"]
    assert j.document_type("dangerous_hearing_request_form", day).layer == "city"
    # (C)(2)(a) read with the problem noted in the text: a dog not seized is said to be not seized
    seized = [s for s in doc.sections if s.when is not None]
    assert [s.when.test for s in seized] == ["not_done", "done", "last", "not"]
    # (C)(2)(a) "the telephone number and contact person where the dog is kept": the place that holds a seized
    # dog, else the person who declared it (issue 18)
    contact = [s for s in seized if s.when.test in ("last", "not")]
    assert "{seizure.telephone}" in contact[0].text and "{declarant.telephone}" in contact[1].text


def test_tracys_notice_of_classification_lists_every_requirement_of_subd_5():
    j = library().get("tracy-mn")
    (doc,) = j.document_types("notify_classification", "vicious", dt.date(2026, 6, 1))
    (section,) = [s for s in doc.sections if s.element]
    assert section.element == "tracy-mn:3.notice/requirements_and_conditions"
    for clause in ("5.A", "5.B", "5.C", "5.D", "5.E", "5.F"):
        assert f"(Subd {clause})" in section.text
    assert "$50,000" in section.text and "5 feet by 10 feet" in section.text and "4 feet" in section.text
    assert len(section.text.split("\n\n")) == 7  # a paragraph per requirement, after the opening line


def test_a_notice_states_the_time_its_own_date_starts():
    """{deadline.owner.request_hearing} on the notice whose date starts it: the case as it will be once the step
    is taken, before the documents' contents are known."""
    j = library().get("battle-lake-mn")
    sheriff = Actor("officer", j.pack_roles_for(["animal_control_officer"]))
    at = dt.datetime(2026, 6, 1, 12, tzinfo=CHICAGO)
    cleaned = j.validate_inputs(
        "declare",
        CaseState(None, dt.date(2026, 5, 30)),
        {"designation": "potentially_dangerous", "basis": "bit a jogger", "declarant_telephone": "555-0100"},
        at,
    )
    declared = CaseState(
        "potentially_dangerous",
        dt.date(2026, 5, 30),
        (TakenStep("declare", at, sheriff.id, None, j.events_of("declare", at, cleaned), cleaned),),
    )
    later = at + dt.timedelta(hours=1)
    assert "owner.request_hearing" not in {o.deadline_id for o in j.obligations(declared, later)}
    owed = j.obligations_if_taken(
        "serve_notice",
        declared,
        later,
        {"served_on": "2026-06-01", "method": "personal", "served_owner": "A. Owner"},
    )
    hearing = next(o for o in owed if o.deadline_id == "owner.request_hearing")
    # 14 days of the date of the notice ((B)(2)(b)), or of its receipt ((H)) if later: not known yet
    assert hearing.due is None and "at least until Monday 15 June 2026" in hearing.reason
    owed = j.obligations_if_taken(
        "serve_notice",
        declared,
        later,
        {
            "served_on": "2026-06-01",
            "method": "personal",
            "served_owner": "A. Owner",
            "received_on": "2026-06-01",
        },
    )
    hearing = next(o for o in owed if o.deadline_id == "owner.request_hearing")
    assert hearing.due == dt.date(2026, 6, 15)
    with pytest.raises(InputError):
        j.state_if_taken("serve_notice", declared, later, {"served_on": "not a date"})


@pytest.mark.parametrize("jurisdiction", ["mn-statute", "battle-lake-mn", "tracy-mn"])
def test_every_statement_of_a_shipped_document_has_its_citation_beside_it(jurisdiction):
    """A section that says something (more than the case's values, an address block or a form's blanks) cites the
    clause it comes from: its element's provision or its own `provision:`."""
    import re

    uncited = [
        f"{doc.id}: {section.heading}"
        for doc in library().get(jurisdiction).all_document_types(dt.date(2026, 6, 1))
        for section in doc.sections
        if not section.citation
        # the owner's portal ({portal.code}) is dogcase's own addition to a notice, not a statement of law
        and "portal.code" not in section.sources
        and re.sub(r"\{[^}]*\}|[_\s,.:;()]|Name|Signature|Date|Telephone", "", section.text)
    ]
    assert uncited == []


def test_battle_lakes_dangerous_notice_says_whether_the_dog_was_seized():
    """(C)(2)(a) asks for "a description of the seized dog" though (C)(1) needs no seizure: the notice says the
    dog was not seized, or where the seized dog is kept (the reading of the problem noted in the text)."""
    j = library().get("battle-lake-mn")
    at = dt.datetime(2026, 6, 1, 12, tzinfo=CHICAGO)
    declared = TakenStep(
        "declare", at - dt.timedelta(days=3), "x", None, {"declaration": dt.date(2026, 5, 29)}, {}
    )
    seized = TakenStep("seize", at - dt.timedelta(days=1), "x", None, {"seizure": dt.date(2026, 5, 31)}, {})
    doc = j.document_type("dangerous_declaration_notice", at.date())

    def conditional(taken):
        state = CaseState("dangerous", dt.date(2026, 5, 1), taken)
        return [s.heading for s in j.applicable_sections(doc, state, at) if s.when is not None]

    # the contact of (C)(2)(a), "where the dog is kept": the person who declared it, or the place that holds it
    assert conditional((declared,)) == ["Seizure", "Who to contact"]
    assert conditional((declared, seized)) == [
        "Your dog has been seized",
        "Where your dog is kept, and whom to contact",
    ]


def test_the_states_notice_of_an_intended_destruction_must_state_its_three_elements():
    """347.56 names no notice; dogcase's reading (347.56.notice) gives it three elements, so a dog never declared
    is served a notice that says them, and the step refuses one that leaves one out."""
    j = library().get("tracy-mn")
    at = dt.datetime(2024, 5, 10, 12, tzinfo=CHICAGO)
    state = CaseState(None, dt.date(2024, 5, 1))
    base = {"served_on": "2024-05-10", "incident": "mauled a child, unprovoked", "method": "personal service"}
    (doc,) = j.document_types("serve_destruction_notice", None, at.date())
    contents = j.elements_contained([doc.id], state, at)
    assert sorted(contents) == sorted(j.required_elements("serve_destruction_notice", state, at))
    assert [c.rsplit("/", 1)[1] for c in contents] == ["intended_destruction", "incident", "time_to_request"]
    assert j.validate_inputs("serve_destruction_notice", state, {**base, "contents": contents}, at)
    with pytest.raises(InputError) as caught:
        j.validate_inputs("serve_destruction_notice", state, {**base, "contents": contents[:2]}, at)
    assert "within 14 days of the date of the notice" in caught.value.rule
    assert "Minn. Stat. § 347.56" in caught.value.rule
