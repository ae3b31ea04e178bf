"""Uploaded evidence and proof: checked by content (not by the name or the browser's word), an image decoded
within a bound and re-encoded without its metadata, stored once under its SHA-256, never overwritten; and a stored file served back as a response nothing may cache or run.

The bytes go through Django's storage API (the "default" entry of STORAGES): a local folder (MEDIA_ROOT) by
default, an S3-compatible store when configured (docs/deploy.md), with no change here.
"""

from __future__ import annotations

import hashlib
import io
import warnings

from django.conf import settings
from django.core.exceptions import SuspiciousFileOperation
from django.core.files.base import ContentFile, File
from django.core.files.storage import storages
from django.http import FileResponse, Http404
from django.utils.translation import gettext
from PIL import Image, ImageOps, UnidentifiedImageError

# What a city accepts as evidence or proof, recognised by the first bytes of the file.
SIGNATURES: tuple[tuple[bytes, str, str], ...] = (
    (b"%PDF-", "application/pdf", ".pdf"),
    (b"\xff\xd8\xff", "image/jpeg", ".jpg"),
    (b"\x89PNG\r\n\x1a\n", "image/png", ".png"),
    (b"GIF87a", "image/gif", ".gif"),
    (b"GIF89a", "image/gif", ".gif"),
)
ACCEPTED = "PDF, JPEG, PNG, GIF or WebP"


class UploadRejected(ValueError):
    def __init__(self, field: str, rule: str) -> None:
        super().__init__(f"{field}: {rule}")
        self.field = field
        self.rule = rule


def sniff(head: bytes) -> tuple[str, str] | None:
    for magic, content_type, ext in SIGNATURES:
        if head.startswith(magic):
            return content_type, ext
    # WebP: RIFF....WEBP
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp", ".webp"
    return None


def read_upload(upload, field: str) -> tuple[bytes, str, str]:
    """The bytes, content type and extension of an upload, or UploadRejected naming the field."""
    limit = settings.DOGCASE_MAX_UPLOAD_BYTES
    if upload.size is not None and upload.size > limit:
        raise UploadRejected(
            field, gettext("the file is larger than %(size)s MB") % {"size": limit // (1024 * 1024)}
        )
    data = b"".join(upload.chunks())
    if len(data) > limit:
        raise UploadRejected(
            field, gettext("the file is larger than %(size)s MB") % {"size": limit // (1024 * 1024)}
        )
    if not data:
        raise UploadRejected(field, gettext("the file is empty"))
    kind = sniff(data[:16])
    if kind is None:
        # in the language of the page that sent it (an owner's portal page may be Spanish; staff pages English)
        raise UploadRejected(
            field,
            gettext("only %(accepted)s files are accepted (this file is none of them)")
            % {"accepted": gettext(ACCEPTED)},
        )
    if kind[0].startswith("image/"):
        return reencode(data, kind[0], field)  # bounded, and re-encoded before anyone opens it
    return data, kind[0], kind[1]


def write_blob(data: bytes, ext: str) -> tuple[str, str]:
    """Write the bytes under their hash (once); return (sha256, the name in the storage)."""
    digest = hashlib.sha256(data).hexdigest()
    name = f"{digest[:2]}/{digest}{ext}"
    storage = storages["default"]
    if not storage.exists(name):
        saved = storage.save(name, ContentFile(data))
        if saved != name:
            # Another upload of the same bytes won the race: the storage kept both under two names; the
            # first one is the file, and the same bytes are never written over it.
            storage.delete(saved)
    return digest, name


def open_blob(name: str) -> File:
    """The stored file, open for reading (OSError or FileNotFoundError when the storage lacks it)."""
    return storages["default"].open(name, "rb")


def stored_response(
    path: str, *, content_type: str, filename: str, missing: str = "The stored file is missing."
):
    """A stored file (evidence, proof, an issued document) as a response that nothing may cache or run: an image
    is shown, anything else downloaded. 404 when the stored bytes are gone."""
    try:
        handle = open_blob(path)  # FileResponse closes it
    except (OSError, SuspiciousFileOperation):
        raise Http404(missing) from None
    inline = content_type.startswith("image/")
    response = FileResponse(handle, content_type=content_type, as_attachment=not inline, filename=filename)
    response["X-Content-Type-Options"] = "nosniff"
    # Served files never run anything, even if a browser were to treat one as a page.
    response["Content-Security-Policy"] = "default-src 'none'; img-src 'self'; sandbox"
    response["Cache-Control"] = "private, no-store"
    return response


# ---- images: decoded within a bound, re-encoded (issue 19, item 10)

FORMATS = {"JPEG", "PNG", "GIF", "WEBP"}


def reencode(data: bytes, content_type: str, field: str) -> tuple[bytes, str, str]:
    """An image, evidence or proof alike, is decoded within a bound and re-encoded before it is stored: its
    header is read first (a small file can claim a huge picture), Pillow's decompression-bomb check is an error,
    and what is stored is a fresh encoding of the pixels (a JPEG stays a JPEG, anything else becomes a PNG), with
    no metadata, no trailing bytes and the camera's orientation applied.
    (bytes, content type, extension) of the image re-encoded; other content is returned as it is.
    UploadRejected when the image cannot be read or is too large."""
    if not content_type.startswith("image/"):
        return data, content_type, ""
    bound = settings.DOGCASE_MAX_IMAGE_PIXELS
    unreadable = gettext("the image cannot be read: send it again as a JPEG or PNG photo")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=sorted(FORMATS))
            if image.width * image.height > bound:
                raise UploadRejected(field, _too_large(bound))
            image.seek(0)
            image.load()
            image = ImageOps.exif_transpose(image)
    except UploadRejected:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise UploadRejected(field, _too_large(bound)) from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError):
        raise UploadRejected(field, unreadable) from None
    out = io.BytesIO()
    if image.format == "JPEG" or content_type == "image/jpeg":
        if image.mode not in ("RGB", "L"):
            image = image.convert("RGB")
        image.save(out, "JPEG", quality=90, optimize=True)
        return out.getvalue(), "image/jpeg", ".jpg"
    if image.mode not in ("1", "L", "LA", "P", "RGB", "RGBA", "I", "I;16"):
        image = image.convert("RGBA")
    image.save(out, "PNG", optimize=True)
    return out.getvalue(), "image/png", ".png"


def _too_large(bound: int) -> str:
    return gettext("the image is too large (%(pixels)s megapixels at most): send a smaller photo") % {
        "pixels": bound // 1_000_000
    }
