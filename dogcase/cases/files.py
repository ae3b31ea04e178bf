"""Uploaded evidence and proof: checked by content (not by the name or the browser's word), stored once under
its SHA-256, never overwritten."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from django.conf import settings

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
        raise UploadRejected(field, f"the file is larger than {limit // (1024 * 1024)} MB")
    data = b"".join(upload.chunks())
    if len(data) > limit:
        raise UploadRejected(field, f"the file is larger than {limit // (1024 * 1024)} MB")
    if not data:
        raise UploadRejected(field, "the file is empty")
    kind = sniff(data[:16])
    if kind is None:
        raise UploadRejected(field, f"only {ACCEPTED} files are accepted (this file is none of them)")
    return data, kind[0], kind[1]


def write_blob(data: bytes, ext: str) -> tuple[str, str]:
    """Write the bytes under their hash (once); return (sha256, path relative to MEDIA_ROOT)."""
    digest = hashlib.sha256(data).hexdigest()
    relative = f"{digest[:2]}/{digest}{ext}"
    target = Path(settings.MEDIA_ROOT) / relative
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(target.suffix + f".{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, target)
        target.chmod(0o444)
    return digest, relative


def blob_path(relative: str) -> Path:
    root = Path(settings.MEDIA_ROOT).resolve()
    path = (root / relative).resolve()
    if root not in path.parents:
        raise ValueError("stored file path leaves the media directory")
    return path
