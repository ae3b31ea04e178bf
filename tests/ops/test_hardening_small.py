"""Issue 19, item 10: no caching of case, owner and API pages; the 500 page's own security headers; names as
one line in e-mails; the daily job's clean-up of spent throttles, links and sessions; sign-in links e-mailed by
the worker, a few at once; the client address header believed only from the proxy; a large request refused
from its declared length; images sent as proof bounded and re-encoded."""

import datetime as dt
import io
import struct
import zlib
from unittest import mock

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.middleware import SessionMiddleware
from django.contrib.sessions.models import Session
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.tasks import task_backends
from django.test import Client, RequestFactory
from django.urls import path
from django.utils import timezone
from PIL import Image

from config import urls as config_urls
from dogcase.accounts.models import LoginThrottle
from dogcase.accounts.throttle import client_address
from dogcase.cases import files as images
from dogcase.cases.files import UploadRejected
from dogcase.messaging.compose import compose
from dogcase.messaging.tasks import daily_sweep
from dogcase.owners import codes
from dogcase.owners import tasks as owner_tasks
from dogcase.owners.mail import send_sign_in_link
from dogcase.owners.models import SignInLink
from dogcase.proofs import services
from tests.cases.conftest import story  # noqa: F401  (the story fixture)
from tests.owners.conftest import owner_of, served_case  # noqa: F401  (the served_case fixture)


def boom(request):
    raise RuntimeError("boom")


urlpatterns = [path("boom/", boom)]
handler500 = config_urls.handler500  # the site's own handler, as config.urls names it

IMMEDIATE = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}


def issue(s):
    return codes.issue_code(s.case, owner_of(s), actor=s.staff["officer"])


# ------------------------------------------------------------------------------------------ Cache-Control


def test_case_owner_and_api_pages_are_not_stored_by_any_cache(served_case):  # noqa: F811
    s = served_case
    staff = Client()
    staff.force_login(s.staff["officer"])
    for url in (f"/cases/{s.case.number}", "/api/v1/cases", f"/api/v1/cases/{s.case.number}"):
        response = staff.get(url)
        assert response.status_code == 200, url
        assert "no-store" in response["Cache-Control"], url
    _row, code = issue(s)
    owner = Client()
    assert owner.post("/owner/", {"code": code, "fact": "Rex"}).status_code == 302
    page = owner.get(f"/owner/cases/{s.case.number}/")
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    assert "no-store" in Client().get("/owner/")["Cache-Control"]


# ---------------------------------------------------------------------------------------------- 500 page


def test_the_500_page_sets_its_security_headers_even_when_a_middleware_failed(db, settings):
    settings.DEBUG = False
    client = Client(raise_request_exception=False)
    # a view's error passes through the header middleware; a session that cannot be saved does not
    with mock.patch.object(SessionMiddleware, "process_response", side_effect=RuntimeError("database down")):
        response = client.get("/law/")
    assert response.status_code == 500
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]
    assert response["X-Frame-Options"] == "DENY"
    assert "no-store" in response["Cache-Control"]
    assert b"Something went wrong" in response.content


@pytest.mark.urls(__name__)
def test_a_views_error_gets_the_same_500_page(db, settings):
    settings.DEBUG = False
    response = Client(raise_request_exception=False).get("/boom/")
    assert response.status_code == 500 and b"Something went wrong" in response.content
    assert (
        "frame-ancestors 'none'" in response["Content-Security-Policy"]
        and response["X-Frame-Options"] == "DENY"
    )


# --------------------------------------------------------------------------------------- names in e-mails


def test_a_name_with_line_breaks_reaches_the_sign_in_e_mail_as_one_line(served_case):  # noqa: F811
    person = owner_of(served_case)
    person.full_name = "Olive Owner\r\nBcc: someone@example.org\n\nClick http://evil.example"
    person.email = "olive@example.com"
    send_sign_in_link(person, "https://dogcase.example.org/owner/link/x")
    body = mail.outbox[0].body
    assert "Hello Olive Owner Bcc: someone@example.org Click http://evil.example," in body
    assert "\nBcc:" not in body and "\r" not in body


def test_a_name_with_line_breaks_reaches_a_messages_body_as_one_line(served_case):  # noqa: F811
    s = served_case
    s.case.dog.name = "Rex\nThe city: pay at http://evil.example"
    composed = compose(
        s.case,
        "proof_accepted",
        context={"condition": "a microchip", "citation": "§ 90.15"},
        language="en",
        recipient_name="Olive\r\nOwner",
        to="owners",
    )
    lines = composed.body.splitlines()
    assert lines[0] == "Dear Olive Owner,"
    assert not any(line.startswith("The city: pay") for line in lines)
    assert "your dog Rex The city: pay at http://evil.example." in composed.body


# ----------------------------------------------------------------------------------- the daily clean-up


def test_the_daily_job_cleans_up_spent_throttles_links_and_sessions(served_case, settings):  # noqa: F811
    settings.TASKS = IMMEDIATE
    now = timezone.now()
    long_ago = now - dt.timedelta(days=2)
    LoginThrottle.objects.create(key="user:old", failures=5, first_failure_at=long_ago, locked_until=long_ago)
    LoginThrottle.objects.create(
        key="user:recent", failures=2, first_failure_at=now - dt.timedelta(minutes=5)
    )
    LoginThrottle.objects.create(
        key="user:locked", failures=5, first_failure_at=long_ago, locked_until=now + dt.timedelta(minutes=5)
    )
    row, _code = issue(served_case)

    def link(name, **kw):
        defaults = {"created_at": now, "expires_at": now + dt.timedelta(minutes=30)}
        return SignInLink.objects.create(
            access_code=row, token_hash=codes.keyed_hash("link", name), **defaults | kw
        )

    link("expired", expires_at=now - dt.timedelta(minutes=1))
    link("used", used_at=now)
    live = link("live")
    old = SessionStore()
    old.set_expiry(-60)
    old.save()
    current = SessionStore()
    current.save()

    report = daily_sweep.call(day=timezone.localdate().isoformat())

    assert report["expired_credentials"] == {"login_throttles": 1, "sign_in_links": 2, "sessions": 1}
    assert set(LoginThrottle.objects.values_list("key", flat=True)) == {"user:recent", "user:locked"}
    assert list(SignInLink.objects.values_list("pk", flat=True)) == [live.pk]
    assert list(Session.objects.values_list("session_key", flat=True)) == [current.session_key]


# ------------------------------------------------------------------------------ sign-in links by the worker


def _with_email(s):
    person = owner_of(s)
    type(person).objects.filter(pk=person.pk).update(email="olive@example.com")


def test_the_sign_in_e_mail_is_sent_by_the_worker_not_by_the_request(served_case, settings):  # noqa: F811
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
    s = served_case
    _with_email(s)
    _row, code = issue(s)
    response = Client().post("/owner/", {"code": code, "fact": "Rex"})
    assert response.status_code == 200 and "o…@example.com" in response.content.decode()
    assert mail.outbox == []  # nothing sent while the owner waited
    link = SignInLink.objects.get()
    assert link.token_hash.startswith(owner_tasks.PENDING)  # no token exists yet, so none is stored
    queued = task_backends["default"].results
    assert [(r.task.name, r.args) for r in queued] == [("send_link", [link.pk])]

    assert owner_tasks.send_link.call(link.pk) == "sent"  # what the worker does
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["olive@example.com"]
    url = mail.outbox[0].body.split("\n\n")[2].strip()
    token = url.rsplit("/", 1)[-1] or url.rstrip("/").rsplit("/", 1)[-1]
    link.refresh_from_db()
    assert link.token_hash == codes.keyed_hash("link", token)
    assert owner_tasks.send_link.call(link.pk) != "sent"  # sent once only


def test_at_most_a_few_sign_in_links_are_valid_at_once(served_case, settings):  # noqa: F811
    settings.TASKS = IMMEDIATE
    settings.DOGCASE_OWNER_LINKS_AT_ONCE = 3
    s = served_case
    _with_email(s)
    _row, code = issue(s)
    for _ in range(6):
        assert Client().post("/owner/", {"code": code, "fact": "Rex"}).status_code == 200
    assert SignInLink.objects.count() == 3 and len(mail.outbox) == 3
    # once one is used up, another may be sent
    SignInLink.objects.filter(pk=SignInLink.objects.first().pk).update(used_at=timezone.now())
    Client().post("/owner/", {"code": code, "fact": "Rex"})
    assert len(mail.outbox) == 4


# --------------------------------------------------------------------------------- the client's address


@pytest.mark.parametrize(
    ("remote", "proxies", "expected"),
    [
        ("203.0.113.5", ["127.0.0.1", "::1"], "203.0.113.5"),  # straight to gunicorn: the header is forged
        ("127.0.0.1", ["127.0.0.1", "::1"], "198.51.100.7"),  # from the proxy: its header is the client
        ("10.0.0.7", ["10.0.0.0/24"], "198.51.100.7"),  # a network of balancers
        ("10.0.1.7", ["10.0.0.0/24"], "10.0.1.7"),
        ("not an address", ["127.0.0.1"], "not an address"),
    ],
)
def test_the_client_address_header_is_believed_only_from_a_trusted_proxy(settings, remote, proxies, expected):
    settings.DOGCASE_CLIENT_IP_HEADER = "X-Forwarded-For"
    settings.DOGCASE_TRUSTED_PROXIES = proxies
    request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR="1.1.1.1, 198.51.100.7")
    assert client_address(request) == expected


# ------------------------------------------------------------------------------------------ request size


def test_a_request_larger_than_the_limit_is_refused_from_its_declared_length_unread(db, settings):
    settings.DOGCASE_MAX_REQUEST_BYTES = 1024 * 1024
    reads = []

    class Body(io.BytesIO):
        def read(self, *args):
            reads.append(args)
            return super().read(*args)

    client = Client()
    environ = {"CONTENT_LENGTH": str(50 * 1024 * 1024), "wsgi.input": Body(b"code=x&fact=y")}
    response = client.generic(
        "POST", "/owner/", b"code=x&fact=y", content_type="application/x-www-form-urlencoded", **environ
    )
    assert response.status_code == 413
    assert response["X-Frame-Options"] == "DENY" and "Content-Security-Policy" in response
    assert reads == []
    # within the limit the form is read as before
    assert Client().post("/owner/", {"code": "x", "fact": "y"}).status_code == 400


# ------------------------------------------------------------------------------------------------ images


def _png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG file whose header claims a picture of width x height (a decompression bomb's shape)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b""))
        + chunk(b"IEND", b"")
    )


def _jpeg_with_location() -> bytes:
    image = Image.new("RGB", (40, 30), "red")
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"  # Make
    exif[0x8825] = {2: (46.0, 17.0, 0.0)}  # GPSInfo: latitude
    out = io.BytesIO()
    image.save(out, "JPEG", exif=exif)
    return out.getvalue() + b"<script>trailing</script>"


def test_an_image_larger_than_the_bound_is_refused_before_its_pixels_are_decoded(settings):
    settings.DOGCASE_MAX_IMAGE_PIXELS = 10_000_000
    with (
        mock.patch.object(Image.Image, "load", side_effect=AssertionError("decoded")),
        pytest.raises(UploadRejected, match="too large"),
    ):
        images.reencode(_png_claiming(20_000, 20_000), "image/png", "files")


def test_an_image_is_re_encoded_without_its_metadata_or_trailing_bytes():
    data = _jpeg_with_location()
    assert Image.open(io.BytesIO(data)).getexif()

    out, content_type, ext = images.reencode(data, "image/jpeg", "files")

    assert (content_type, ext) == ("image/jpeg", ".jpg") and out != data
    again = Image.open(io.BytesIO(out))
    assert again.size == (40, 30) and not again.getexif()
    assert b"PhoneMaker" not in out and b"<script>" not in out


def test_evidence_images_are_re_encoded_when_the_upload_is_read():
    """Every upload is read by one function (evidence at intake, proof from the portal, a dog's photo)."""
    data = _jpeg_with_location()
    out, content_type, ext = images.read_upload(SimpleUploadedFile("bite.jpg", data), "evidence[0].file")
    assert (content_type, ext) == ("image/jpeg", ".jpg")
    assert b"PhoneMaker" not in out and b"<script>" not in out
    pdf = b"%PDF-1.7\n1 0 obj<<>>endobj\n%%EOF\n"
    assert images.read_upload(SimpleUploadedFile("report.pdf", pdf), "evidence[1].file") == (
        pdf,
        "application/pdf",
        ".pdf",
    )


def test_a_file_that_only_starts_like_an_image_is_refused():
    with pytest.raises(UploadRejected, match="cannot be read"):
        images.reencode(b"\x89PNG\r\n\x1a\n" + b"<html><script>x</script>" * 10, "image/png", "files")


def test_proof_files_are_re_encoded_and_bounded_when_the_proof_form_is_read(db, settings):
    photos = mock.Mock(kind="photos", id="enclosure")  # a condition proved by photographs
    gif = io.BytesIO()
    Image.new("P", (5, 5)).save(gif, "GIF", comment=b"hidden words")
    cleaned = services.clean(
        photos, {}, [SimpleUploadedFile("yard.gif", gif.getvalue())], timezone.localdate()
    )
    (_upload, content, content_type, ext) = cleaned["_files"][0]
    assert (content_type, ext) == ("image/png", ".png") and content.startswith(b"\x89PNG")
    assert b"hidden words" not in content
    settings.DOGCASE_MAX_IMAGE_PIXELS = 100
    big = SimpleUploadedFile("big.png", _png_claiming(1000, 1000))
    with pytest.raises(services.ProofInvalid) as refused:
        services.clean(photos, {}, [big], timezone.localdate())
    assert "too large" in refused.value.errors["files"]


def test_the_import_page_takes_a_file_up_to_its_own_limit_and_no_more(settings):
    """A city's records come in one file of up to 100 MB (docs/data.md): the import page alone accepts a body
    that large; above it, the request is refused unread as everywhere."""
    from dogcase.imports.reading import MAX_BYTES

    settings.DOGCASE_MAX_REQUEST_BYTES = 1024 * 1024
    client = Client()
    within = {"CONTENT_LENGTH": str(MAX_BYTES), "wsgi.input": io.BytesIO(b"")}
    above = {"CONTENT_LENGTH": str(MAX_BYTES + 2 * 1024 * 1024), "wsgi.input": io.BytesIO(b"")}
    kind = "application/x-www-form-urlencoded"
    assert client.generic("POST", "/imports/", b"", content_type=kind, **within).status_code != 413
    assert client.generic("POST", "/imports/", b"", content_type=kind, **above).status_code == 413
    assert client.generic("POST", "/owner/", b"", content_type=kind, **within).status_code == 413
