"""Every page needs a login, shows only the user's cities, and refuses writes to the read-only auditor."""

import pytest
from django.test import Client

from dogcase.cases.models import Event, StoredFile, Task
from tests.staff.conftest import BATTLE_LAKE, TRACY, client_for, declare, record_bite

pytestmark = pytest.mark.django_db


def urls_of(case) -> list[str]:
    dog = case.dog
    owner = dog.owners.first()
    event = case.events.order_by("seq").first()
    return [
        "/search?q=dog",
        "/cases/",
        f"/cases/{case.number}",
        f"/cases/{case.number}/act/serve_notice",
        f"/cases/{case.number}/events/{event.seq}/correct",
        "/dogs/",
        f"/dogs/{dog.pk}",
        "/people/",
        f"/people/{owner.pk}",
        "/incidents/",
        "/incidents/new",
        f"/incidents/{case.incident.number}",
    ]


def test_every_page_sends_a_visitor_to_the_login(officer):
    case = record_bite(officer)
    anonymous = Client()
    for url in urls_of(case) + ["/files/1"]:
        response = anonymous.get(url)
        assert response.status_code == 302, url
        assert response.url.startswith("/accounts/login/?next="), url
    for url in ["/incidents/new/classify", "/tasks/1/done", f"/cases/{case.number}/act/declare"]:
        response = anonymous.post(url)
        assert response.status_code == 302, url
        assert response.url.startswith("/accounts/login/"), url


def test_a_user_without_a_role_is_refused(officer, django_user_model):
    case = record_bite(officer)
    nobody = django_user_model.objects.create_user("nobody")
    client = client_for(nobody)
    assert client.get("/cases/").status_code == 403
    assert client.get(f"/cases/{case.number}").status_code == 403


def test_records_of_another_city_are_not_found(officer, make_staff_user):
    case = record_bite(officer, city=BATTLE_LAKE)
    tracy_only = client_for(
        make_staff_user("animal_control_officer", username="tracy-officer", cities=[TRACY])
    )
    for url in urls_of(case)[2:]:
        if url in ("/dogs/", "/people/", "/incidents/", "/incidents/new"):
            continue
        assert tracy_only.get(url).status_code == 404, url
    # ... and the lists and search do not show them
    link = f'href="/cases/{case.number}"'
    assert link not in tracy_only.get("/cases/").content.decode()
    assert case.dog.name not in tracy_only.get("/dogs/").content.decode()
    assert link not in tracy_only.get(f"/search?q={case.number}").content.decode()
    assert link in client_for(officer).get(f"/search?q={case.number}").content.decode()


def test_another_citys_user_cannot_act_on_the_case(officer, make_staff_user):
    case = record_bite(officer, city=BATTLE_LAKE)
    tracy_only = client_for(
        make_staff_user("animal_control_officer", username="tracy-officer", cities=[TRACY])
    )
    response = tracy_only.post(
        f"/cases/{case.number}/act/declare",
        {
            "version": case.version,
            "in-designation": "dangerous",
            "in-basis": "x",
            "in-declarant_telephone": "218-555-0150",
        },
    )
    assert response.status_code == 404
    assert not case.events.filter(act="declare").exists()


def test_the_auditor_reads_everything_and_writes_nothing(officer, auditor):
    case = record_bite(officer)
    client = client_for(auditor)
    page = client.get(f"/cases/{case.number}")
    assert page.status_code == 200
    assert "Your role is read-only" in page.content.decode()
    assert f'href="/cases/{case.number}/act/' not in page.content.decode()
    assert client.get(f"/cases/{case.number}/act/declare").status_code == 403
    response = client.post(
        f"/cases/{case.number}/act/declare",
        {
            "version": case.version,
            "in-designation": "dangerous",
            "in-basis": "Bit a child",
            "in-declarant_telephone": "218-555-0150",
        },
    )
    assert response.status_code == 403
    assert client.get("/incidents/new", follow=True).status_code == 403
    assert client.post("/incidents/new", {"jurisdiction": BATTLE_LAKE}).status_code == 403
    event = case.events.first()
    assert client.post(f"/cases/{case.number}/events/{event.seq}/correct", {}).status_code == 403
    task = Task.objects.create(
        case=case, jurisdiction=case.jurisdiction, key="k", text="Do it", created_at=case.opened_at
    )
    assert client.post(f"/tasks/{task.pk}/done").status_code == 403
    task.refresh_from_db()
    assert task.done_at is None
    assert not case.events.filter(act="declare").exists()


def test_a_hearing_officer_cannot_record_an_incident(hearing_officer):
    client = client_for(hearing_officer)
    assert client.get("/incidents/new", follow=True).status_code == 403
    assert client.post("/incidents/new/classify", {"jurisdiction": BATTLE_LAKE}).status_code == 403


def test_act_forms_need_the_csrf_token(officer):
    case = record_bite(officer)
    client = Client(enforce_csrf_checks=True)
    client.force_login(officer)
    response = client.post(
        f"/cases/{case.number}/act/declare",
        {
            "version": case.version,
            "in-designation": "dangerous",
            "in-basis": "Bit a child",
            "in-declarant_telephone": "218-555-0150",
        },
    )
    assert response.status_code == 403
    assert not case.events.filter(act="declare").exists()
    form = client.get(f"/cases/{case.number}/act/declare")
    token = form.context["csrf_token"]
    response = client.post(
        f"/cases/{case.number}/act/declare",
        {
            "csrfmiddlewaretoken": str(token),
            "version": case.version,
            "idempotency_key": form.context["token"],
            "in-designation": "potentially_dangerous",  # what the facts support (issue 20 item 4)
            "in-basis": "Bit a child",
            "in-declarant_telephone": "218-555-0150",
        },
    )
    assert response.status_code == 302
    assert case.events.filter(act="declare").count() == 1


def test_tasks_and_intake_need_the_csrf_token(officer):
    case = record_bite(officer)
    task = Task.objects.create(
        case=case, jurisdiction=case.jurisdiction, key="k", text="x", created_at=case.opened_at
    )
    client = Client(enforce_csrf_checks=True)
    client.force_login(officer)
    assert client.post(f"/tasks/{task.pk}/done").status_code == 403
    assert client.post("/incidents/new", {"jurisdiction": BATTLE_LAKE}).status_code == 403
    assert client.post("/incidents/new/classify", {"jurisdiction": BATTLE_LAKE}).status_code == 403


def test_a_file_of_another_city_is_not_served(officer, make_staff_user):
    case = record_bite(officer)
    stored = StoredFile.objects.create(
        jurisdiction=BATTLE_LAKE,
        sha256="0" * 64,
        original_name="x.pdf",
        content_type="application/pdf",
        size=1,
        path="00/none.pdf",
        uploaded_by=officer,
        uploaded_at=case.opened_at,
    )
    tracy_only = client_for(
        make_staff_user("animal_control_officer", username="tracy-officer", cities=[TRACY])
    )
    assert tracy_only.get(f"/files/{stored.pk}").status_code == 404


def test_declaring_through_another_citys_form_leaves_no_event(officer):
    case = record_bite(officer)
    declare(case, officer)
    assert Event.objects.filter(case=case, act="declare").count() == 1
