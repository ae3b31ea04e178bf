"""The owner's proof pages, through a test URLconf standing in for the portal's mount."""

import pytest
from django.test import Client

from dogcase.proofs import services
from dogcase.proofs.models import ProofSubmission
from tests.proofs.helpers import PDF, coverage_data, owner_of, png

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.proofs.urls")]


def owner_client(person, *, csrf=False):
    client = Client(enforce_csrf_checks=csrf)
    session = client.session
    session["test_owner"] = person.pk
    session.save()
    return client


def test_the_list_says_what_is_needed_with_citations_and_where_each_proof_stands(dangerous_case, officer):
    case = dangerous_case()
    owner = owner_of(case)
    sign = services.submit(case, "warning_sign", data={}, uploads=[png("sign.png")], person=owner)
    enclosure = services.submit(case, "proper_enclosure", data={}, uploads=[png()], person=owner)
    services.accept(enclosure, actor=officer)
    services.reject(sign, actor=officer, reason="The symbol is not visible from the street.")
    html = owner_client(owner).get(f"/owner/cases/{case.number}/proof/").content.decode()
    assert "Proof for the registration" in html
    assert "Minn. Stat. § 347.51, subd. 2 (surety bond or liability insurance)" in html
    assert "At least $300,000 of coverage." in html
    assert "Done: your proof was accepted." in html
    assert "Not accepted." in html and "The symbol is not visible from the street." in html
    assert "Not sent yet." in html
    assert 'name="viewport"' in html
    # no engine identifier in the words of the page
    # the condition's id is in its link only, never in the words
    assert "liability_coverage" not in html.replace(
        f'href="/owner/cases/{case.number}/proof/liability_coverage/"', ""
    )


def test_uploading_proof_of_insurance_records_it_waiting_for_review(dangerous_case):
    case = dangerous_case()
    owner = owner_of(case)
    client = owner_client(owner)
    form = client.get(f"/owner/cases/{case.number}/proof/liability_coverage/")
    assert form.status_code == 200
    assert "The law requires coverage of at least $300,000" in form.content.decode()
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = client.post(
        f"/owner/cases/{case.number}/proof/liability_coverage/",
        {**coverage_data(), "files": SimpleUploadedFile("cert.pdf", PDF)},
    )
    assert response.status_code == 302 and response.url == f"/owner/cases/{case.number}/proof/?sent=1"
    proof = ProofSubmission.objects.get(case=case, condition="liability_coverage")
    assert proof.status == "submitted" and proof.submitted_by_person == owner
    assert str(proof.amount_usd) == "300000.00" and proof.files.count() == 1
    event = case.events.get(act="submit_proof")
    assert event.actor is None and event.data["filed_by"] == {"person": owner.pk, "via": "portal"}
    listing = client.get(f"/owner/cases/{case.number}/proof/?sent=1").content.decode()
    assert "Waiting for review." in listing


def test_bad_input_names_the_field_and_rule_and_keeps_what_was_typed(dangerous_case):
    case = dangerous_case()
    client = owner_client(owner_of(case))
    data = coverage_data(amount_usd="100000", issuer="Lakes Insurance Co")
    response = client.post(f"/owner/cases/{case.number}/proof/liability_coverage/", data)
    html = response.content.decode()
    assert response.status_code == 400
    assert "Amount of coverage, in dollars: The law requires at least $300,000" in html
    assert "Minn. Stat. § 347.51, subd. 2" in html
    assert "Attach the certificate of insurance or the bond" in html
    assert 'value="Lakes Insurance Co"' in html and 'value="HO-123456"' in html
    assert not ProofSubmission.objects.filter(case=case).exists()
    chip = client.post(
        f"/owner/cases/{case.number}/proof/microchip_for_certificate/",
        {"microchip_number": "12345", "microchip_manufacturer": "AVID"},
    )
    assert chip.status_code == 400
    assert "Microchip number: A microchip number has 9, 10 or 15 digits" in chip.content.decode()
    assert 'value="12345"' in chip.content.decode() and 'value="AVID"' in chip.content.decode()


def test_the_form_needs_the_csrf_token(dangerous_case):
    case = dangerous_case()
    client = owner_client(owner_of(case), csrf=True)
    response = client.post(
        f"/owner/cases/{case.number}/proof/microchip_for_certificate/",
        {"microchip_number": "985112003456789", "microchip_manufacturer": "AVID"},
    )
    assert response.status_code == 403
    assert not ProofSubmission.objects.filter(case=case).exists()


def test_another_persons_case_and_an_unknown_condition_are_404(dangerous_case, officer):
    from dogcase.cases import acts

    case = dangerous_case()
    stranger = acts.record_person(jurisdiction=case.jurisdiction, actor=officer, full_name="Someone Else")
    assert owner_client(stranger).get(f"/owner/cases/{case.number}/proof/").status_code == 404
    client = owner_client(owner_of(case))
    assert client.get(f"/owner/cases/{case.number}/proof/leash_and_muzzle/").status_code == 404
    assert client.get(f"/owner/cases/{case.number}/proof/no_such_thing/").status_code == 404


def test_the_owner_pages_speak_spanish_when_the_owner_chose_it(dangerous_case, rf):
    from django.contrib.sessions.middleware import SessionMiddleware
    from django.utils import translation

    from dogcase.proofs import owner_views

    case = dangerous_case()
    owner = owner_of(case)
    request = rf.get(f"/owner/cases/{case.number}/proof/")
    SessionMiddleware(lambda r: None).process_request(request)
    with translation.override("es"):
        listing = owner_views.proof_list(request, case, owner).content.decode()
        form = owner_views.proof_upload(request, case, owner, "liability_coverage").content.decode()
    assert "Pruebas para el registro" in listing and "Todavía no la envió." in listing
    assert 'lang="es"' in listing
    assert "Monto de la cobertura, en dólares" in form and "Seguro de responsabilidad civil" in form
    assert "La ley exige una cobertura de al menos $300" in form  # 300 000, as Spanish writes it
    assert "Una fianza o un seguro de responsabilidad civil de al menos $300,000" in form


def test_a_spanish_owner_is_told_what_is_wrong_in_spanish(dangerous_case, rf):
    """The problems of the form, not only its labels, are in the owner's language; the citation stays."""
    from django.contrib.sessions.middleware import SessionMiddleware
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.utils import translation

    from dogcase.proofs import owner_views

    case = dangerous_case()
    owner = owner_of(case)

    def post(condition, data, files=()):
        request = rf.post(f"/owner/cases/{case.number}/proof/{condition}/", {**data, "files": list(files)})
        SessionMiddleware(lambda r: None).process_request(request)
        request._dont_enforce_csrf_checks = True
        with translation.override("es"):
            response = owner_views.proof_upload(request, case, owner, condition)
        assert response.status_code == 400
        return response.content.decode()

    coverage = post("liability_coverage", coverage_data(amount_usd="100000", issuer="", ends_on="2020-02-30"))
    assert "La ley exige al menos $300,000 (Minn. Stat. § 347.51, subd. 2" in coverage
    assert "esta póliza es de $100,000." in coverage
    assert "Falta el nombre de la aseguradora o de la fiadora." in coverage
    assert "Ese día no existe en el calendario: 2020-02-30." in coverage
    assert "Adjunte el certificado del seguro o la fianza (PDF o foto)." in coverage
    assert "is required" not in coverage and "The law requires" not in coverage

    chip = post("microchip_for_certificate", {"microchip_number": "12345", "microchip_manufacturer": ""})
    assert "Un número de microchip tiene 9, 10 o 15 dígitos y nada más (este tiene 5 caracteres)." in chip
    assert "Falta el nombre del fabricante del microchip." in chip

    text = SimpleUploadedFile("notes.txt", b"just words", content_type="text/plain")
    files = post("liability_coverage", coverage_data(), files=[text])
    assert (
        "notes.txt: solo se aceptan archivos PDF, JPEG, PNG, GIF o WebP (este no es ninguno de ellos)."
        in files
    )
    assert not ProofSubmission.objects.filter(case=case).exists()


def test_staff_and_english_owners_keep_the_english_words(dangerous_case):
    case = dangerous_case()
    with pytest.raises(services.ProofInvalid) as caught:
        services.clean(
            services.law.condition(case, "liability_coverage"),
            coverage_data(amount_usd="100000", issuer=""),
            [],
            case.opened_at.date(),
        )
    errors = caught.value.errors
    assert errors["issuer"] == "The insurer's or surety's name is required."
    assert errors["amount_usd"].startswith("The law requires at least $300,000 (")
