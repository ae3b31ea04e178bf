"""What a pack may add to the shared vocabulary by data alone: fact value labels, its own facts and values."""

from __future__ import annotations

import datetime as dt

import pytest

from dogcase.law.errors import LawNotInForce, PackError
from dogcase.law.loader import PACKS_DIR, Library, load_all

from .invented_packs import write_invented_packs
from .lakeview import LAKEVIEW, install_lakeview


def test_every_enum_and_set_value_of_the_shared_facts_has_a_label():
    facts = load_all().facts.facts
    for fact in facts.values():
        if fact.type == "bool":
            assert not fact.labels
            continue
        missing = [v for v in fact.ordered_values if v not in fact.labels]
        assert not missing, f"{fact.id}: no label for {missing}"


def test_label_of_gives_the_label_or_the_id_in_words():
    facts = load_all().facts.facts
    assert facts["injury"].label_of("great_bodily_harm") == "Great bodily harm (Minn. Stat. 609.02 subd. 8)"
    assert facts["place"].label_of("private_other") == "Someone else's private property"
    assert facts["victim_conduct"].label_of("committing_crime") == "Committing a crime"
    # a value without a label reads as its id in words
    assert facts["bit"].label_of("some_new_value") == "Some new value"
    assert dict(facts["bit"].labels) == {}


def _facts_with(tmp_path, old: str, new: str) -> Library:
    folder = write_invented_packs(tmp_path / "packs")
    text = (PACKS_DIR / "facts.yaml").read_text(encoding="utf-8")
    assert old in text
    (folder / "facts.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")
    return Library(folder)


def test_a_label_for_a_value_the_fact_does_not_have_names_file_and_line(tmp_path):
    with pytest.raises(PackError) as caught:
        _facts_with(tmp_path, "      human: A person\n", "      postman: A postman\n")
    error = caught.value
    assert error.file.endswith("facts.yaml")
    assert "'postman' is not a value of fact 'victim'" in error.message
    text = (tmp_path / "packs" / "facts.yaml").read_text(encoding="utf-8")
    assert error.line == next(i for i, line in enumerate(text.splitlines(), 1) if "postman" in line)


def test_a_bool_fact_takes_no_labels(tmp_path):
    with pytest.raises(PackError, match="a bool fact takes no labels"):
        _facts_with(
            tmp_path,
            "  - id: bit\n    type: bool\n",
            "  - id: bit\n    type: bool\n    labels: {bitten: Bit}\n",
        )


# ------------------------------------------------------------------------- what a city pack may add

LAKEVIEW_TEXT = (LAKEVIEW / "pack.yaml").read_text(encoding="utf-8")


def _lakeview_with(tmp_path, old: str, new: str) -> tuple[Library | None, str]:
    assert old in LAKEVIEW_TEXT, "the test's anchor text must exist in the pack"
    text = LAKEVIEW_TEXT.replace(old, new, 1)
    folder = install_lakeview(tmp_path / "packs", shipped=("mn-statute",))
    (folder / "lakeview-mn" / "pack.yaml").write_text(text, encoding="utf-8")
    return Library(folder), text


BROKEN_CITY = [
    pytest.param(
        "  - id: prior_written_warning\n",
        "  - id: bit\n",
        "  - id: bit",
        "fact 'bit' is already a fact of packs/facts.yaml",
        id="a pack fact reusing a shared fact's id",
    ),
    pytest.param(
        "  - fact: injury\n    values: [permanent_disfigurement]",
        "  - fact: injury\n    values: [minor]",
        "values: [minor]",
        "'minor' is already a value of fact 'injury'",
        id="a pack value the shared fact already has",
    ),
    pytest.param(
        "    after: great_bodily_harm\n",
        "    after: grievous_harm\n",
        "    after: grievous_harm",
        "'grievous_harm' is not a value of fact 'injury'",
        id="new values placed after a value the fact does not have",
    ),
    pytest.param(
        "    after: great_bodily_harm\n",
        "    after: great_bodily_harm\n    before: death\n",
        "    before: death",
        "not both",
        id="new values placed both after and before a value",
    ),
    pytest.param(
        "  - fact: injury\n",
        "  - fact: bit\n",
        "  - fact: bit",
        "fact 'bit' is bool",
        id="a value added to a bool fact",
    ),
    pytest.param(
        "  - fact: injury\n",
        "  - fact: wound\n",
        "  - fact: wound",
        "unknown fact 'wound'",
        id="a value added to an unknown fact",
    ),
    pytest.param(
        "      permanent_disfigurement: Permanent",
        "      scar: Permanent",
        "      scar:",
        "'scar' is not a value of fact 'injury'",
        id="a label for a value the pack does not add",
    ),
    pytest.param(
        "events:\n  - id: certified_notice_sent\n",
        "events:\n  - {id: notice_sent, words: the notice}\n  - id: certified_notice_sent\n",
        "  - {id: notice_sent",
        "'notice_sent' is already a shared event",
        id="a pack event reusing a shared event",
    ),
    pytest.param(
        "records: certified_notice_sent}",
        "records: certified_notice_mailed}",
        "certified_notice_mailed",
        "unknown event 'certified_notice_mailed': must be one of incident",
        id="an event neither shared nor declared",
    ),
    pytest.param(
        "    form_of: [certified_mail]",
        "    form_of: [pigeon]",
        "form_of: [pigeon]",
        "form_of: 'pigeon' is not a shared service method",
        id="a service method that is a form of an unknown one",
    ),
    pytest.param(
        "service_methods: [personal, email, certified_mail]",
        "service_methods: [personal, fax, certified_mail]",
        "service_methods: [personal, fax",
        "unknown service_method 'fax'",
        id="a notice served by an undeclared method",
    ),
    pytest.param(
        "to: {rule: owner_of_record_else_any_owner}",
        "to: {rule: the_neighbour}",
        "the_neighbour",
        "must be one of owner, every_owner",
        id="an unknown recipient rule",
    ),
    pytest.param(
        "when: {done: seize_aggressive, ",
        "when: {done: impound_aggressive, ",
        "impound_aggressive",
        "notice element 'seized_dog': condition refers to unknown step 'impound_aggressive'",
        id="a notice element condition on an unknown step",
    ),
    pytest.param(
        "when: {done: seize_aggressive, ",
        "when: {confirmed: seized, ",
        "confirmed: seized",
        "when: 'confirmed' reads a step's form",
        id="a notice element condition that reads a form",
    ),
    pytest.param(
        "      amounts:\n",
        "      amount_usd: 500000\n      amounts:\n",
        "      amounts:",
        "either amount_usd (one amount) or amounts (several), not both",
        id="one amount and several",
    ),
    pytest.param(
        "  - steps: [issue_certificate]\n",
        "  - steps: [issue_license]\n",
        "  - steps: [issue_license]",
        "'issue_license' is not a step of mn-statute",
        id="withdrawing a step the state does not have",
    ),
]


@pytest.mark.parametrize(("old", "new", "line_marker", "message"), BROKEN_CITY)
def test_a_broken_city_vocabulary_names_file_line_and_rule(tmp_path, old, new, line_marker, message):
    with pytest.raises(PackError) as caught:
        _lakeview_with(tmp_path, old, new)
    error = caught.value
    assert error.file.endswith("lakeview-mn/pack.yaml")
    assert message in error.message
    text = LAKEVIEW_TEXT.replace(old, new, 1)
    expected = next(i for i, line in enumerate(text.splitlines(), 1) if line_marker in line)
    assert error.line is not None
    assert abs(error.line - expected) <= 2, f"line {error.line}, expected about {expected}: {error}"


WITHDRAWN_RIGHTS = [
    pytest.param("receive_hearing_request", "Minn. Stat. § 347.541, subd. 1 and 3", id="the hearing request"),
    pytest.param("hold_hearing", "Minn. Stat. § 347.541, subd. 1 and 4", id="the impartial hearing"),
    pytest.param("decide_appeal", "Minn. Stat. § 347.541, subd. 4", id="the impartial decision"),
    pytest.param(
        "serve_notice", "Minn. Stat. § 347.541, subd. 1 and 3", id="the notice that starts the right"
    ),
    pytest.param("post_security", "Minn. Stat. § 347.541, subd. 2", id="security for the costs of care"),
    pytest.param("review_designation", "Minn. Stat. § 347.51, subd. 3a", id="the annual review"),
]


@pytest.mark.parametrize(("step", "citation"), WITHDRAWN_RIGHTS)
def test_a_city_cannot_withdraw_an_owners_state_right(tmp_path, step, citation):
    with pytest.raises(PackError) as caught:
        _lakeview_with(
            tmp_path, "  - steps: [issue_certificate]\n", f"  - steps: [issue_certificate, {step}]\n"
        )
    error = caught.value
    assert error.file.endswith("lakeview-mn/pack.yaml")
    assert f"cannot withdraw {step!r} for dangerous: it is an owner's right under state law" in error.message
    assert citation in error.message
    text = LAKEVIEW_TEXT
    assert error.line == next(
        i for i, line in enumerate(text.splitlines(), 1) if "- steps: [issue_certificate]" in line
    )


def test_a_city_cannot_withdraw_the_owners_time_to_use_a_right(tmp_path):
    with pytest.raises(PackError) as caught:
        _lakeview_with(
            tmp_path,
            "    deadlines: [owner.renew_registration]\n",
            "    deadlines: [owner.request_hearing]\n",
        )
    assert "cannot withdraw 'owner.request_hearing'" in caught.value.message
    assert "Minn. Stat. § 347.541, subd. 1 and 3" in caught.value.message


def test_a_state_pack_withdraws_nothing(tmp_path):
    folder = install_lakeview(tmp_path / "packs", shipped=("mn-statute",))
    state = folder / "mn-statute" / "pack.yaml"
    state.write_text(
        state.read_text(encoding="utf-8")
        + '\nwithdraws:\n  - {steps: [dispose], provision: "347.53", reason: "no"}\n',
        encoding="utf-8",
    )
    with pytest.raises(PackError, match="withdraws is for a city pack"):
        Library(folder)


def test_a_state_pack_fact_reaches_its_cities(tmp_path):
    from .invented_packs import CITY, STATE

    folder = write_invented_packs(tmp_path / "packs")
    state = STATE.replace(
        "roles:\n",
        "facts:\n  - {id: muzzled, type: bool, question: Was the dog muzzled?}\nroles:\n",
        1,
    )
    city = CITY.replace(
        "              - {any: [chased_or_approached, bit]}\n",
        "              - {any: [chased_or_approached, bit]}\n              - {not: muzzled}\n",
        1,
    )
    assert state != STATE and city != CITY
    (folder / "north-state" / "pack.yaml").write_text(state, encoding="utf-8")
    (folder / "south-city" / "pack.yaml").write_text(city, encoding="utf-8")
    lib = Library(folder)
    assert lib.get("south-city").facts.facts["muzzled"].pack == "north-state"
    assert "muzzled" in lib.get("north-state").facts.facts
    assert "muzzled" not in lib.facts.facts  # the shared vocabulary is untouched


def test_law_check_warns_about_a_role_nobody_in_the_staff_app_acts_as(tmp_path):
    folder = install_lakeview(tmp_path / "packs", shipped=("mn-statute",))
    pack = folder / "lakeview-mn" / "pack.yaml"
    text = pack.read_text(encoding="utf-8").replace(
        "    staff: [police_officer]\n", "    staff: [auditor]\n", 1
    )
    pack.write_text(text, encoding="utf-8")
    warnings = [w["warning"] for w in Library(folder).warnings() if w["pack"] == "lakeview-mn"]
    assert any("role 'county_sheriff' (Lake County Sheriff) may act" in w for w in warnings)


def test_a_citys_values_go_where_its_pack_places_them_in_the_facts_order(tmp_path):
    lakeview = Library(install_lakeview(tmp_path / "packs", shipped=("mn-statute",))).get("lakeview-mn")
    # least to most serious: the city's permanent disfigurement after great bodily harm, below death
    assert lakeview.facts.facts["injury"].ordered_values == (
        "none",
        "minor",
        "substantial_bodily_harm",
        "great_bodily_harm",
        "permanent_disfigurement",
        "death",
    )
    assert lakeview.facts.facts["injury"].added_values == {"permanent_disfigurement": "lakeview-mn"}


@pytest.mark.parametrize(
    ("place", "expected"),
    [
        ("    before: minor\n", ("none", "permanent_disfigurement", "minor")),
        ("", ("great_bodily_harm", "death", "permanent_disfigurement")),  # without a place: at the end
    ],
)
def test_before_places_the_values_ahead_and_no_place_puts_them_last(tmp_path, place, expected):
    library, _ = _lakeview_with(tmp_path, "    after: great_bodily_harm\n", place)
    order = library.get("lakeview-mn").facts.facts["injury"].ordered_values
    assert expected == tuple(v for v in order if v in expected)


def test_a_deadline_may_run_only_where_a_citys_own_event_happened(tmp_path):
    # only_if_event (an alternative start, as Tracy 5.F's hearing) names an event like every other event
    # reference: a shared one, or one the pack declares under events:
    lib, _ = _lakeview_with(
        tmp_path,
        '      for: [aggressive]\n  - id: "5.07"\n',
        '      for: [aggressive]\n      only_if_event: certified_notice_sent\n  - id: "5.07"\n',
    )
    j = lib.get("lakeview-mn")
    sent = dt.date(2026, 3, 2)
    due = j.deadline("owner.prove_insurance", {"certified_notice_sent": sent}, designation="aggressive")
    assert due["due"] == "2026-03-12"
    with pytest.raises(LawNotInForce, match="no provision setting 'owner.prove_insurance'"):
        j.deadline("owner.prove_insurance", {"incident": sent}, designation="aggressive")


def test_an_event_may_be_recorded_only_when_served_by_the_citys_own_method(tmp_path):
    # records_if_method names a service method like the notice's service_methods do: a shared one, or one the
    # pack declares (Lakeview's restricted-delivery mail starts the insurance clock, e-mail does not)
    lib, _ = _lakeview_with(
        tmp_path,
        "records: certified_notice_sent}",
        "records_if_method: {restricted_delivery_mail: [certified_notice_sent]}}",
    )
    step = lib.get("lakeview-mn").step("send_insurance_notice", dt.date(2026, 3, 2))
    sent_on = next(i for i in step.inputs if i.id == "sent_on")
    assert sent_on.records_if_method == (("restricted_delivery_mail", ("certified_notice_sent",)),)


def test_records_if_method_naming_no_service_method_names_file_and_line(tmp_path):
    with pytest.raises(PackError, match="records_if_method names 'pigeon', not a service method"):
        _lakeview_with(
            tmp_path,
            "records: certified_notice_sent}",
            "records_if_method: {pigeon: [certified_notice_sent]}}",
        )
