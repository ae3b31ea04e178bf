"""The demo's proof: on the first case of each city whose dog is declared dangerous and has no certificate yet,
the owner has sent proof — the insurance certificate (accepted), photographs
(one waiting for review, one not accepted, with the reason) and the microchip number (waiting)."""

from __future__ import annotations

import datetime as dt
import struct
import zlib

from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from dogcase.cases.models import Case
from dogcase.proofs import conditions, services


def _png() -> bytes:
    """A one-pixel white PNG (a stand-in for the owner's photograph)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00\xff\xff\xff"))
        + chunk(b"IEND", b"")
    )


PDF = b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"


def coverage_data(cond, *, policy: str, starts_on: str, ends_on: str) -> dict:
    """The demo owner's liability insurance, as the proof form takes it (the law's amount for `cond`)."""
    return {
        "coverage_form": "liability_insurance",
        "issuer": "North Star Mutual Insurance",
        "policy_number": policy,
        "amount_usd": str(cond.min_amount or 300000),
        "starts_on": starts_on,
        "ends_on": ends_on,
    }


def demo_proofs(city: str, users: dict) -> int:
    """Send and review the demo's proof in `city`; returns how many proofs were sent."""
    reviewer = users.get("officer")
    if reviewer is None:
        return 0
    case = (
        Case.objects.filter(
            jurisdiction=city, designation="dangerous", designation_in_effect=True, status=Case.Status.OPEN
        )
        .exclude(events__act="issue_certificate")
        .order_by("pk")
        .first()
    )
    if case is None:
        return 0
    ownership = case.dog.ownerships.filter(until__isnull=True).select_related("person").first()
    if ownership is None:
        return 0
    owner = ownership.person
    now = timezone.now()
    today = timezone.localdate()
    sent = 0
    photos = 0
    for cond in conditions.conditions(case, now):
        if cond.kind == "coverage":
            proof = services.submit(
                case,
                cond.id,
                data=coverage_data(
                    cond,
                    policy="HO-2026-44817",
                    starts_on=(today - dt.timedelta(days=20)).isoformat(),
                    ends_on=(today + dt.timedelta(days=345)).isoformat(),
                ),
                uploads=[SimpleUploadedFile("certificate-of-insurance.pdf", PDF)],
                person=owner,
                at=now - dt.timedelta(days=3),
            )
            services.accept(proof, actor=reviewer, at=now - dt.timedelta(days=2))
        elif cond.kind == "photos" and photos == 0:
            photos += 1
            services.submit(
                case,
                cond.id,
                data={"note": "Taken this morning from the sidewalk."},
                uploads=[SimpleUploadedFile("photo-1.png", _png())],
                person=owner,
                at=now - dt.timedelta(days=1),
            )
        elif cond.kind == "photos" and photos == 1:
            photos += 1
            proof = services.submit(
                case,
                cond.id,
                data={},
                uploads=[SimpleUploadedFile("photo-2.png", _png())],
                person=owner,
                at=now - dt.timedelta(days=3),
            )
            services.reject(
                proof,
                actor=reviewer,
                reason="The photo is too dark to see what it shows; please send one taken in daylight.",
                at=now - dt.timedelta(days=2),
            )
        elif cond.kind == "microchip" and cond.condition_of_registration:
            services.submit(
                case,
                cond.id,
                data={"microchip_number": "985112003456789", "microchip_manufacturer": "HomeAgain"},
                person=owner,
                at=now - dt.timedelta(hours=5),
            )
        else:
            continue
        sent += 1
    return sent
