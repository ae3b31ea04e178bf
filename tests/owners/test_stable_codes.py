"""One code per owner per case (issue 20, item 1): every notice to the owner prints the code the owner already
holds, so the code on the first notice keeps working; staff replace it only on purpose, with a reason and a
confirmation, and the replaced code then tells its holder when it was replaced and whom to call."""

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest
from django.test import Client

from dogcase.cases.models import Event
from dogcase.documents import acts as document_acts
from dogcase.documents.models import CityOffice
from dogcase.owners import codes
from dogcase.owners.models import CaseAccessCode
from tests.documents.conftest import make_case, media, on, pdf_text  # noqa: F401  (the fixtures)

pytestmark = pytest.mark.django_db

CODE = re.compile(r"case access code\s+([A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4})")
CT = ZoneInfo("America/Chicago")


def printed_code(document) -> str:
    found = CODE.search(pdf_text(document))
    assert found, pdf_text(document)[-800:]
    return found.group(1)


def owners_documents(result):
    return [d for d in result.documents if d.audience == "owner"]


def sign_in(code: str, fact: str = "Rexford"):
    return Client().post("/owner/", {"code": code, "fact": fact})


def test_the_code_on_the_first_notice_still_signs_in_after_three_more_notices(make_case, staff):  # noqa: F811
    c = make_case()
    c.declare(day=1, designation="dangerous")
    first_notice = owners_documents(c.serve(day=2, telephoned=True))[0]
    first = printed_code(first_notice)
    c.step("receive_hearing_request", "clerk", 3, received_on=on(3))
    hearing = c.step(
        "schedule_hearing",
        "clerk",
        4,
        hearing_at=dt.datetime(2026, 6, 9, 14, tzinfo=CT).isoformat(),
        place="City Hall council chambers",
        hearing_officer=str(staff["hearing"].pk),
    )
    later = owners_documents(hearing)
    corrected = document_acts.correct_document(first_notice, actor=staff["officer"], reason="a typo")
    corrected_again = document_acts.correct_document(corrected, actor=staff["officer"], reason="another typo")
    later += [corrected, corrected_again]
    assert len(later) >= 3
    assert {printed_code(d) for d in later} == {first}
    assert sign_in(first).status_code == 302
    # one code, issued once: no later notice revoked or replaced it
    assert CaseAccessCode.objects.filter(case=c.case, person=c.owner).count() == 1
    assert Event.objects.filter(case=c.case, act="issue_access_code").count() == 1


def test_staff_print_the_same_code_again_without_replacing_it(make_case, client, staff):  # noqa: F811
    c = make_case()
    c.declare()
    first = printed_code(owners_documents(c.serve())[0])
    client.force_login(staff["clerk"])
    slip = client.post(f"/staff/cases/{c.case.number}/owner-access/{c.owner.pk}/issue")
    assert slip.status_code == 200
    assert f'data-code="{first}"' in slip.content.decode()
    assert sign_in(first).status_code == 302


def test_replacing_a_code_needs_a_reason_and_a_confirmation(make_case, client, staff):  # noqa: F811
    c = make_case()
    c.declare()
    first = printed_code(owners_documents(c.serve())[0])
    client.force_login(staff["clerk"])
    url = f"/staff/cases/{c.case.number}/owner-access/{c.owner.pk}/issue"
    refused = client.post(url, {"replace": "1", "reason": "lost"}, follow=True)
    assert "give the reason and tick the confirmation" in refused.content.decode()
    refused = client.post(url, {"replace": "1", "confirm": "1", "reason": "  "}, follow=True)
    assert "give the reason and tick the confirmation" in refused.content.decode()
    assert sign_in(first).status_code == 302  # nothing was replaced
    slip = client.post(url, {"replace": "1", "confirm": "1", "reason": "The owner's letter was stolen"})
    new = re.search(r'data-code="([A-Z0-9-]+)"', slip.content.decode()).group(1)
    assert new != first
    assert sign_in(new).status_code == 302
    event = Event.objects.filter(case=c.case, act="issue_access_code").order_by("-seq").first()
    assert event.actor_id == staff["clerk"].pk and "The owner's letter was stolen" in event.summary


def test_a_replaced_code_says_when_and_whom_to_call(make_case, client, staff):  # noqa: F811
    CityOffice.objects.update_or_create(
        jurisdiction="battle-lake-mn", office="letterhead", defaults={"telephone": "218-555-0150"}
    )
    c = make_case()
    c.declare()
    first = printed_code(owners_documents(c.serve())[0])
    client.force_login(staff["clerk"])
    client.post(
        f"/staff/cases/{c.case.number}/owner-access/{c.owner.pk}/issue",
        {"replace": "1", "confirm": "1", "reason": "disclosed"},
    )
    row = CaseAccessCode.objects.get(code_hash=codes.code_hash(first))
    response = sign_in(first)
    page = response.content.decode()
    assert response.status_code == 400
    assert "This code was replaced on" in page and "218-555-0150" in page, re.findall(
        r"<p[^>]*error[^>]*>.*?</p>", page, re.S
    )
    assert row.revoked_at is not None
    # without the dog's name or the ZIP code, a replaced code is not told apart from a wrong one
    wrong = sign_in(first, fact="Fido").content.decode()
    assert "replaced" not in wrong and "do not match" in wrong


def test_a_code_issued_before_codes_were_derived_is_replaced_once_by_the_next_notice(make_case):  # noqa: F811
    c = make_case()
    c.declare()
    legacy = "ABCD-EFGH-JKMN"
    CaseAccessCode.objects.create(
        case=c.case, person=c.owner, code_hash=codes.code_hash(legacy), created_at=c.case.opened_at
    )
    assert sign_in(legacy).status_code == 302
    notice = owners_documents(c.serve())[0]
    printed = printed_code(notice)
    assert printed != legacy and sign_in(printed).status_code == 302
    event = Event.objects.filter(case=c.case, act="issue_access_code").get()
    assert "could not be printed again" in event.summary
    # and the notice after it prints the same code again
    again = document_acts.correct_document(notice, actor=c.staff["officer"], reason="a typo")
    assert printed_code(again) == printed


def test_derived_codes_differ_by_case_owner_and_generation(settings):
    a = codes.derived_code(1, 1, 1)
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}", a)
    assert set(a.replace("-", "")) <= set(codes.ALPHABET)
    assert (
        len({a, codes.derived_code(2, 1, 1), codes.derived_code(1, 2, 1), codes.derived_code(1, 1, 2)}) == 4
    )
    assert codes.derived_code(1, 1, 1) == a
    settings.SECRET_KEY = "another key entirely, for this test only"
    assert codes.derived_code(1, 1, 1) != a


def test_a_former_owners_code_no_longer_opens_the_case(make_case, staff):  # noqa: F811
    from django.utils import timezone

    from dogcase.cases.models import Ownership

    c = make_case()
    c.declare()
    code = printed_code(owners_documents(c.serve())[0])
    client = Client()
    assert client.post("/owner/", {"code": code, "fact": "Rexford"}).status_code == 302
    assert client.get(f"/owner/cases/{c.case.number}/").status_code == 200
    # the ownership ended (as the record of a transfer ends it; set here directly)
    Ownership.objects.filter(dog=c.dog, person=c.owner).update(
        until=timezone.localdate() - dt.timedelta(days=1)
    )
    # the signed-in session and a new sign-in both stop at the case: it is no longer theirs to read
    assert client.get(f"/owner/cases/{c.case.number}/").status_code == 404
    fresh = Client()
    fresh.post("/owner/", {"code": code, "fact": "Rexford"})
    assert fresh.get(f"/owner/cases/{c.case.number}/").status_code == 404
    assert c.owner not in codes.owners_of(c.case)


def test_printing_a_code_again_is_recorded_with_its_actor(make_case, client, staff):  # noqa: F811
    c = make_case()
    c.declare()
    c.serve()
    client.force_login(staff["clerk"])
    client.post(f"/staff/cases/{c.case.number}/owner-access/{c.owner.pk}/issue")
    event = Event.objects.get(case=c.case, act="print_access_code")
    assert event.actor_id == staff["clerk"].pk and c.owner.full_name in event.summary
