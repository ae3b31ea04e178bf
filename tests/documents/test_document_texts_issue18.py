"""What the issued documents say (issue 18): each statement holds under the text it cites. Every test issues the
documents through the real act (documents.acts.take_step) and reads the PDF back as the recipient would."""

import re

import pytest
from django.test import Client

from dogcase.cases.acts import case_state
from dogcase.documents import acts as document_acts
from dogcase.documents.fill import inputs_documents_need
from dogcase.documents.models import CityOffice
from dogcase.law import library
from dogcase.law.documents import SOURCES
from tests.documents.conftest import (
    DAY0,
    PHONE,
    SERIOUS,
    at,
    contains_values,
    on,
    pdf_text,
    squeeze,
    without_footers,
)

pytestmark = pytest.mark.django_db

OFFICE_ADDRESS = "City Hall, 335 Fourth Street, Tracy, MN 56175"


def flat(doc) -> str:
    """The PDF's text as one line of words: page footers out, line breaks as spaces."""
    return " ".join(without_footers(pdf_text(doc)).split())


def doc_of(result, doc_type: str):
    return next(d for d in result.documents if d.doc_type == doc_type)


def named(user, first: str, last: str):
    user.first_name, user.last_name = first, last
    user.save()
    return user


def hearing_at(day: int, hour: int = 14) -> str:
    return at(day, hour).isoformat()


# ---------------------------------------------------------------------------------------- 1. notice of hearing


def test_the_notice_of_hearing_names_the_designation_once(make_case, staff):
    c = make_case()
    c.declare(day=1)
    c.serve(day=2)
    c.step("receive_hearing_request", "clerk", 3, received_on=on(3))
    result = c.step(
        "schedule_hearing",
        "clerk",
        4,
        hearing_at=hearing_at(10),
        place="City Hall council chambers",
        hearing_officer=str(staff["hearing"].pk),
    )
    text = flat(doc_of(result, "hearing_notice"))
    assert "dog dog" not in text
    assert (
        f"appeal of the declaration of Rexford as a potentially dangerous dog (case {c.case.number})" in text
    )


def test_the_notice_of_a_hearing_on_a_destruction_states_that_subject(make_case, staff):
    # (I)(2): the notice states the subject of the hearing — for the (K) appeal, the intended destruction
    c = make_case(facts=SERIOUS)
    c.declare(day=1, designation="dangerous")
    c.step(
        "serve_destruction_notice",
        "officer",
        5,
        served_on=on(5),
        incident="On the day before this notice the dog bit a neighbour on the hand without provocation.",
        method="personal service",
        received_on=on(5),
    )
    c.step("receive_destruction_hearing_request", "clerk", 6, received_on=on(6))
    result = c.step(
        "schedule_destruction_hearing",
        "clerk",
        7,
        hearing_at=hearing_at(12),
        place="City Hall council chambers",
        hearing_officer=str(staff["hearing"].pk),
    )
    text = flat(doc_of(result, "hearing_notice"))
    assert (
        "appeal of the intended destruction of Rexford, of which notice was given on Saturday, 6 June 2026"
        in text
    )
    assert "appeal of the declaration" not in text


# ------------------------------------------------------------------------ 4. the $300,000 of (C)(5)(e), 347.51


def _bond_line(text: str) -> str:
    found = re.search(r"A surety bond payable to any person injured.*?\)\)", text)
    assert found, text
    return found.group(0)


def test_the_battle_lake_dangerous_notice_states_the_bond_amount(make_case):
    c = make_case(facts=SERIOUS)
    c.declare(designation="dangerous")
    notice = doc_of(c.serve(telephoned=True), "dangerous_declaration_notice")
    assert "of at least $300,000" in _bond_line(flat(notice))


def _certified(c, staff, day: int = 4):
    """A Battle Lake dangerous dog, declared and served, with its certificate issued on day `day`."""
    c.declare(day=1, designation="dangerous")
    c.serve(day=2, telephoned=True)
    j = library().get(c.case.jurisdiction)
    proofs = [x["value"] for x in j.input_choices("issue_certificate", case_state(c.case), at(day))["proofs"]]
    named(staff["clerk"], "Kim", "Aasen")
    return c.step("issue_certificate", "clerk", day, proofs=proofs, number="BL-DD-TEST-1")


def test_the_certificate_states_the_bond_amount(make_case, staff):
    c = make_case(facts=SERIOUS)
    certificate = doc_of(_certified(c, staff), "certificate_of_registration")
    assert "of at least $300,000" in _bond_line(flat(certificate))


def test_the_councils_confirmation_states_the_bond_amount(make_case, staff):
    c = make_case(facts=SERIOUS)
    c.declare(day=1, designation="dangerous")
    c.serve(day=2, telephoned=True)
    c.step("receive_hearing_request", "clerk", 3, received_on=on(3))
    c.step(
        "schedule_hearing",
        "clerk",
        4,
        hearing_at=hearing_at(8),
        place="City Hall council chambers",
        hearing_officer=str(staff["hearing"].pk),
    )
    c.step("hold_hearing", "hearing", 8, held_on=on(8))
    c.step("decide_appeal", "hearing", 9, outcome="upheld", reasons="The bite was unprovoked.")
    c.step("recommend", "hearing", 9, outcome="confirm")
    result = c.step("confirm_or_rescind", "council", 12, outcome="confirmed", resolution="Res. 2026-7")
    decision = doc_of(result, "council_decision")
    text = flat(decision)
    assert "of at least $300,000" in _bond_line(text)
    assert "confirmed the dangerous dog designation of your dog" in text
    # the decision says what the Council did, not both branches
    assert "If it rescinded" not in text and "rescinded the" not in text
    assert contains_values(decision, pdf_text(decision)) == []


# -------------------------------------------------------------------------------- 5. the certificate's words


def test_the_certificate_lists_the_conditions_of_registration_only(make_case, staff):
    c = make_case(facts=SERIOUS)
    certificate = doc_of(_certified(c, staff), "certificate_of_registration")
    text = flat(certificate)
    # not circular: the certificate is not issued on evidence of "a current registration"
    assert "A current registration" not in text
    assert "sufficient evidence that: " not in text
    # the owner's continuing duties are not conditions of the certificate ((C)(5)(a)-(f), 347.51 subd. 2)
    for duty in (
        "Tell the landlord",
        "While an appeal is pending",
        "Notify the animal control authority in writing",
    ):
        assert duty not in text, duty
    # every condition (C)(5) lists is there, in its order
    listed = [m.start() for m in (re.search(re.escape(f"(C)(5)({x})"), text) for x in "abcdef") if m]
    assert len(listed) == 6 and listed == sorted(listed), text
    assert contains_values(certificate, pdf_text(certificate)) == []


def test_the_certificate_runs_one_year_and_is_not_moved_past_a_weekend(make_case, staff):
    # issued on Friday 5 June 2026: one year ends on Saturday 5 June 2027. 645.15 moves the last day of a time to
    # do an act (the renewal may be made on Monday 7 June) — not the end of the term the certificate grants.
    c = make_case(facts=SERIOUS)
    result = _certified(c, staff, day=4)
    text = flat(doc_of(result, "certificate_of_registration"))
    assert "Issued on Friday, 5 June 2026" in text
    assert "valid for one year, through Saturday, 5 June 2027" in text
    assert "Monday, 7 June 2027" not in text.split("What happens next")[0]


def test_the_certificate_names_who_issued_it_in_the_office_the_law_names(make_case, staff):
    c = make_case(facts=SERIOUS)
    certificate = doc_of(_certified(c, staff), "certificate_of_registration")
    text = flat(certificate)
    assert "Kim Aasen, City Clerk/Treasurer, City of Battle Lake." in text
    assert "City clerk" not in text
    # a correction is still the act of the person who issued it, whoever corrects it
    corrected = document_acts.correct_document(certificate, actor=staff["admin"], reason="Typo in the number")
    assert "Kim Aasen, City Clerk/Treasurer, City of Battle Lake." in flat(corrected)


# --------------------------------------------------------------------------- 6. Tracy's notice for an owner not located


def _classified(make_case, staff, who: str = "clerk"):
    c = make_case(city="tracy-mn")
    named(staff[who], "Kim", "Aasen")
    c.step(
        "classify", who, 1, designation="vicious", reasonable_cause="Unprovoked bite on a person, witnessed."
    )
    CityOffice.objects.update_or_create(
        jurisdiction="tracy-mn", office="city_administrator", defaults={"address": OFFICE_ADDRESS}
    )
    return c


def test_the_posted_notice_says_it_was_posted_and_that_posting_starts_no_window(make_case, staff):
    c = _classified(make_case, staff)
    result = c.step(
        "post_notice_owner_not_located",
        "clerk",
        2,
        sent_on=on(2),
        method="posting_on_owner_property",
        search="Knocked on doors; no licence on file",
    )
    notice = doc_of(result, "vicious_classification_posted_notice")
    text = flat(notice)
    assert "this notice was posted on your property on Wednesday, 3 June 2026" in text
    assert "or sent by certified mail" not in text
    assert "business days after the sending" not in text  # the old "by 5 business days after the sending…"
    assert (
        "This posted notice is not notice sent by certified mail: it does not start those five days." in text
    )
    assert contains_values(notice, pdf_text(notice)) == []


def test_the_notice_sent_by_certified_mail_says_so_and_gives_the_last_day(make_case, staff):
    c = _classified(make_case, staff)
    result = c.step(
        "post_notice_owner_not_located",
        "clerk",
        2,
        sent_on=on(2),
        method="certified_mail_return_receipt",
        search="No owner found",
    )
    text = flat(doc_of(result, "vicious_classification_posted_notice"))
    assert (
        "sent to your last known address by certified mail, return receipt requested, on Wednesday, 3 June"
        in text
    )
    assert "posted on your property" not in text
    # five regular business days after Wednesday 3 June 2026
    assert "for this notice, by Wednesday, 10 June 2026" in text


def test_a_notice_of_classification_not_sent_by_certified_mail_gives_no_meaningless_date(make_case, staff):
    c = _classified(make_case, staff)
    result = c.step("notify_classification", "clerk", 2, sent_on=on(2), certified_mail=False)
    text = flat(doc_of(result, "vicious_classification_notice"))
    assert "business days after the sending" not in text
    assert (
        "This notice was not sent by certified mail, return receipt requested: it does not start those five"
        in text
    )


# ------------------------------------------------------------------------------ 7. where a seized dog is kept


def test_the_state_notice_of_a_seized_dog_gives_the_place_that_holds_it(make_case, staff):
    c = make_case(city="tracy-mn", facts=SERIOUS)
    c.declare(day=1, designation="dangerous")
    c.step(
        "seize",
        "officer",
        2,
        ground="not_enclosed",
        place="Lyon County Animal Shelter, 20 Shelter Road",
        contact="Pat Kennel",
        telephone="507-555-0199",
    )
    result = c.step("serve_notice", "officer", 3, served_on=on(3), method="personal", telephoned=True)
    notice = doc_of(result, "dangerous_declaration_notice")
    text = flat(notice)
    assert "It is held at Lyon County Animal Shelter, 20 Shelter Road." in text
    assert "Contact person there: Pat Kennel, telephone 507-555-0199." in text
    assert f"telephone {PHONE}" not in text.split("You may ask for a hearing")[0]
    assert contains_values(notice, pdf_text(notice)) == []


def test_a_dangerous_notice_of_a_seized_dog_is_not_issued_without_the_places_telephone(make_case):
    c = make_case(facts=SERIOUS)
    c.declare(day=1, designation="dangerous")
    # (C)(6): not sterilized within 30 days of the declaration — seized before the notice was served
    c.step("seize", "officer", 33, ground="not_sterilized", place="Lakes Area Kennel", contact="Jo Berg")
    with pytest.raises(document_acts.MissingElements) as refused:
        c.serve(day=34, telephoned=True)
    assert "seizure.telephone" in {m.source for m in refused.value.missing}
    assert "(C)(2)(a)" in str(refused.value)


def test_the_battle_lake_notice_of_a_seized_dog_gives_the_place_that_holds_it(make_case):
    c = make_case(facts=SERIOUS)
    c.declare(day=1, designation="dangerous")
    c.step(
        "seize",
        "officer",
        33,
        ground="not_sterilized",
        place="Lakes Area Kennel, 4 Kennel Road",
        contact="Jo Berg",
        telephone="218-555-0177",
    )
    notice = doc_of(c.serve(day=34, telephoned=True), "dangerous_declaration_notice")
    text = flat(notice)
    assert (
        "Your dog is held at Lakes Area Kennel, 4 Kennel Road. Contact person there: Jo Berg, telephone 218-555-0177."
        in text
    )
    assert "Your dog has not been seized" not in text
    assert contains_values(notice, pdf_text(notice)) == []


# ---------------------------------------------------------------------------- 8. the state's hearing-request form


def test_the_state_form_says_where_to_send_it(make_case):
    c = make_case(city="tracy-mn", facts=SERIOUS)
    c.declare(day=1, designation="dangerous")
    # the address the texts do not give: the notice is not issued until the city supplies it
    CityOffice.objects.filter(jurisdiction="tracy-mn", office="animal_control_authority").delete()
    with pytest.raises(document_acts.MissingElements) as refused:
        c.step("serve_notice", "officer", 2, served_on=on(2), method="personal", telephoned=True)
    assert "office.animal_control_authority.address" in {m.source for m in refused.value.missing}
    CityOffice.objects.create(
        jurisdiction="tracy-mn", office="animal_control_authority", address=OFFICE_ADDRESS
    )
    notice = doc_of(
        c.step("serve_notice", "officer", 2, served_on=on(2), method="personal", telephoned=True),
        "dangerous_declaration_notice",
    )
    text = flat(notice)
    form = text.split("Request for a hearing on a dangerous dog declaration", 1)[1]
    assert f"The animal control authority, {OFFICE_ADDRESS}." in form
    assert "Send this form to the animal control authority, at the address above, within 14 days" in form
    assert f"Send your request to the animal control authority, {OFFICE_ADDRESS}" in text


# -------------------------------------------------------------------------------------------- 13. small things


def test_a_value_that_ends_its_sentence_gets_no_second_full_stop(make_case):
    c = make_case()
    c.step(
        "declare",
        "officer",
        1,
        designation="potentially_dangerous",
        basis="Unprovoked bite on a person in a public place.",
        declarant_telephone=PHONE,
    )
    text = flat(doc_of(c.serve(), "pdd_declaration_notice"))
    assert "in a public place.." not in text
    assert "Your dog was declared on this ground: Unprovoked bite on a person in a public place." in text


def test_the_hearing_officers_decision_says_what_was_decided_and_only_what_follows_from_it(make_case, staff):
    c = make_case(facts=SERIOUS)
    c.declare(day=1, designation="dangerous")
    c.serve(day=2, telephoned=True)
    c.step("receive_hearing_request", "clerk", 3, received_on=on(3))
    c.step(
        "schedule_hearing",
        "clerk",
        4,
        hearing_at=hearing_at(8),
        place="City Hall council chambers",
        hearing_officer=str(staff["hearing"].pk),
    )
    c.step("hold_hearing", "hearing", 8, held_on=on(8))
    result = c.step("decide_appeal", "hearing", 9, outcome="rescinded", reasons="The dog was provoked.")
    text = flat(doc_of(result, "hearing_officer_decision"))
    assert "The hearing officer did not uphold the declaration. Reasons: The dog was provoked." in text
    assert "rescinded." not in text  # the old ": rescinded." / "rescinded. Reasons"
    # the costs and the 14 days to comply follow an upheld declaration only ((C)(3), (C)(2)(d))
    assert "actual expense of the hearing" not in text
    # the written recommendation to the Council ((I)(4)) says it the same way
    recommendation = doc_of(
        c.step("recommend", "hearing", 9, outcome="rescind"), "hearing_officer_recommendation"
    )
    text = flat(recommendation)
    assert "I recommend that the City Council rescind the designation." in text
    assert "I did not uphold the declaration. Reasons: The dog was provoked." in text
    assert "reasons: rescinded." not in text


def test_the_state_hearing_officers_decision_says_what_was_decided(make_case):
    c = make_case(city="tracy-mn", facts=SERIOUS)
    c.declare(day=1, designation="dangerous")
    c.step("serve_notice", "officer", 2, served_on=on(2), method="personal", telephoned=True)
    c.step("receive_hearing_request", "officer", 3, received_on=on(3))
    c.step(
        "schedule_hearing",
        "officer",
        4,
        hearing_at=hearing_at(8),
        place="City Hall",
        hearing_officer=str(c.staff["hearing"].pk),
    )
    c.step("hold_hearing", "hearing", 8, held_on=on(8))
    result = c.step("decide_appeal", "hearing", 9, outcome="upheld", reasons="Unprovoked bite.")
    text = flat(doc_of(result, "hearing_officer_decision"))
    assert "The hearing officer upheld the declaration. Reasons: Unprovoked bite." in text
    assert ": upheld." not in text
    assert (
        "Because the declaration is upheld, you must pay the actual expenses of the hearing, up to $1,000"
        in text
    )


def _k_decided(make_case, staff, *, determination: str, council: str):
    c = make_case(facts=SERIOUS)
    c.declare(day=1, designation="dangerous")
    c.step(
        "serve_destruction_notice",
        "officer",
        5,
        served_on=on(5),
        incident="On the day before this notice the dog bit a neighbour on the hand without provocation.",
        method="personal service",
        received_on=on(5),
    )
    c.step("receive_destruction_hearing_request", "clerk", 6, received_on=on(6))
    c.step(
        "schedule_destruction_hearing",
        "clerk",
        7,
        hearing_at=hearing_at(12),
        place="City Hall council chambers",
        hearing_officer=str(staff["hearing"].pk),
    )
    c.step("hold_destruction_hearing", "hearing", 12, held_on=on(12))
    c.step("decide_destruction", "hearing", 13, outcome=determination, reasons="Findings of the hearing.")
    result = c.step(
        "confirm_or_rescind_destruction", "council", 15, outcome=council, resolution="Res. 2026-9"
    )
    return doc_of(result, "council_destruction_decision")


def test_the_councils_destruction_decision_says_what_it_rescinded(make_case, staff):
    text = flat(_k_decided(make_case, staff, determination="not_appropriate", council="rescinded"))
    assert "the City Council rescinded the intended destruction: your dog is not to be destroyed" in text
    assert "decided: rescinded" not in text
    assert "the hearing officer determined that destruction is not appropriate" in text
    # the costs of (K) follow only a determination that destruction is appropriate
    assert "costs of confiscating" not in text


def test_the_councils_confirmation_of_a_destruction_puts_the_costs_on_the_owner(make_case, staff):
    text = flat(_k_decided(make_case, staff, determination="destroy_appropriate", council="confirmed"))
    assert "the City Council confirmed the intended destruction" in text
    assert "you must pay the costs of confiscating, boarding and destroying the dog" in text


def _tracy_decided(make_case, staff):
    c = _classified(make_case, staff)
    c.step("notify_classification", "clerk", 2, sent_on=on(2), certified_mail=True)
    c.step("receive_classification_appeal", "clerk", 4, received_on=on(4))
    c.step("hold_classification_hearing", "council", 8, held_on=on(8))
    return c


def test_the_tracy_classification_decision_lists_all_of_subd_5(make_case, staff):
    c = _tracy_decided(make_case, staff)
    result = c.step(
        "decide_classification_appeal", "council", 9, outcome="upheld", reasons="The bite was unprovoked."
    )
    decision = doc_of(result, "classification_decision")
    text = flat(decision)
    for clause in ("5.A", "5.B", "5.C", "5.D", "5.E", "5.F"):
        assert f"Subd {clause}" in text, clause
    assert "decided on Wednesday, 10 June 2026 to uphold the classification" in text
    assert contains_values(decision, pdf_text(decision)) == []


def test_a_rescinded_classification_tells_the_owner_no_requirements(make_case, staff):
    c = _tracy_decided(make_case, staff)
    result = c.step(
        "decide_classification_appeal", "council", 9, outcome="rescinded", reasons="The dog was provoked."
    )
    text = flat(doc_of(result, "classification_decision"))
    assert "to rescind the classification: your dog is no longer classified as a vicious dog" in text
    assert "you must meet all the requirements" not in text


def test_an_input_a_document_cannot_be_issued_without_is_not_labelled_optional(make_case, staff):
    j = library().get("battle-lake-mn")
    # the declarant's telephone: the declaration may be recorded without it, the notice not issued without it
    declare = j.step("declare", DAY0)
    need = inputs_documents_need(j, declare, None, DAY0)["declarant_telephone"]
    assert not need.now
    assert any("potentially dangerous dog" in t for t in need.documents)
    # the certificate's number: the certificate the step issues prints it
    c = make_case(facts=SERIOUS)
    c.declare(day=1, designation="dangerous")
    c.serve(day=2, telephoned=True)
    client = Client()
    client.force_login(staff["clerk"])
    html = client.get(f"/cases/{c.case.number}/act/issue_certificate").content.decode()
    label = re.search(r'<label for="in-number">(.*?)</label>', html, flags=re.S)
    assert label and "(optional)" not in label.group(1)
    assert re.search(
        r'<input type="text" id="in-number"[^>]* required', html
    )  # a number: one line (issue 20)


# --------------------------------------------------------------- Law 5: the office the law names, never a staff role


@pytest.mark.parametrize(
    ("who", "office"), [("clerk", "Tracy City Administrator"), ("police", "Tracy Chief of Police")]
)
def test_the_tracy_notice_names_the_office_subd_2_names(make_case, staff, who, office):
    c = _classified(make_case, staff, who=who)
    result = c.step("notify_classification", who, 2, sent_on=on(2), certified_mail=True)
    text = flat(doc_of(result, "vicious_classification_notice"))
    assert f"Kim Aasen, {office}, classified your dog" in text
    for staff_role in ("(City clerk)", "(Police officer)", "City clerk,", "Police officer,"):
        assert staff_role not in text


def test_the_battle_lake_notice_names_the_office_of_the_declarant(make_case):
    c = make_case()
    c.declare()
    text = flat(doc_of(c.serve(), "pdd_declaration_notice"))
    assert "Alex Lindqvist, City Animal Control Officer, made this declaration" in text
    assert "(Animal control officer)" not in text


def test_no_document_of_any_pack_prints_a_staff_role():
    assert not [n for n in SOURCES if n.endswith(".role")]
    for pack in ("mn-statute", "battle-lake-mn", "tracy-mn"):
        j = library().get(pack)
        for t in j.all_document_types(DAY0):
            assert not [n for n in t.sources if n.endswith(".role")], (pack, t.id)


# ------------------------------------------------------------------------------------ the addressee, once


def test_the_addressee_is_printed_once_and_the_form_is_addressed_to_the_office(make_case):
    c = make_case()
    c.declare()
    notice = doc_of(c.serve(), "pdd_declaration_notice")
    text = pdf_text(notice)
    pages = re.split(
        r"Request\s+for\s+a\s+hearing\s+on\s+a\s+potentially\s+dangerous\s+dog\s+declaration", text
    )
    assert len(pages) == 2, text
    assert squeeze(pages[0]).count(squeeze("Olive Ostrander, 12 Lake Street")) == 0  # the old "To" section
    assert pages[0].count("To: Olive Ostrander") == 1
    # the form the owner sends is addressed to the City Clerk/Treasurer, not to the owner
    assert "To: Olive Ostrander" not in pages[1]
    assert "The City Clerk/Treasurer, City of Battle Lake" in pages[1]
