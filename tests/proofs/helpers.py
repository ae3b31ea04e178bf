"""Proof sent the way the portal sends it, for the tests."""

import datetime as dt
import io

from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from PIL import Image

from dogcase.cases.files import reencode
from dogcase.proofs import services


def _real_png() -> bytes:
    # a readable picture: an image sent as proof is decoded and re-encoded before it is stored (issue 19)
    out = io.BytesIO()
    Image.new("RGB", (4, 3), "white").save(out, "PNG")
    return out.getvalue()


PNG = _real_png()
# the same picture as dogcase stores it (re-encoded: encoding it again gives the same bytes)
STORED_PNG = reencode(PNG, "image/png", "file")[0]
PDF = b"%PDF-1.4\n%test certificate\n"


def png(name="enclosure.png"):
    return SimpleUploadedFile(name, PNG, content_type="image/png")


def pdf(name="certificate.pdf"):
    return SimpleUploadedFile(name, PDF, content_type="application/pdf")


def owner_of(case):
    return case.dog.ownerships.first().person


def today():
    return timezone.localdate()


def coverage_data(**over):
    data = {
        "coverage_form": "liability_insurance",
        "issuer": "North Star Mutual",
        "policy_number": "HO-123456",
        "amount_usd": "300,000",
        "starts_on": (today() - dt.timedelta(days=30)).isoformat(),
        "ends_on": (today() + dt.timedelta(days=335)).isoformat(),
    }
    data.update(over)
    return data


def send_all(case, person=None):
    """A proof of every condition the law asks for in the case, from its owner; returns them by condition."""
    from dogcase.proofs import conditions

    person = person or owner_of(case)
    out = {}
    for cond in conditions.conditions(case):
        if cond.kind == "coverage":
            data, files = coverage_data(), [pdf()]
        elif cond.kind == "microchip":
            data, files = {"microchip_number": "985112003456789", "microchip_manufacturer": "HomeAgain"}, []
        elif cond.kind == "sterilization":
            data, files = (
                {
                    "sterilized_on": today().isoformat(),
                    "veterinarian_name": "Dr. Vera Vet",
                    "veterinarian_address": "1 Clinic Rd, Tracy MN",
                    "veterinarian_phone": "507-555-0100",
                },
                [],
            )
        elif cond.kind == "photos":
            data, files = {}, [png()]
        else:
            data, files = {}, [pdf("receipt.pdf")]
        out[cond.id] = services.submit(case, cond.id, data=data, uploads=files, person=person)
    return out
