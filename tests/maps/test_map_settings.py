"""The map's deployment settings: a blank base unless a tile server is named, and then only its origin is
allowed for images by the Content-Security-Policy."""

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings


def _csp_img_src(**env) -> tuple[int, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("DOGCASE_MAP_")}
    code = (
        "import json; from config import settings as s; "
        "print(json.dumps([str(x) for x in s.SECURE_CSP['img-src']]))"
    )
    done = subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", code],
        env={**base, **env},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    return done.returncode, done.stdout.strip() or done.stderr.strip().splitlines()[-1]


def test_the_base_is_blank_and_no_outside_image_is_allowed_by_default():
    assert settings.DOGCASE_MAP_TILES == "" and settings.DOGCASE_GEOCODER_URL == ""
    assert all("://" not in str(src) for src in settings.SECURE_CSP["img-src"])


def test_a_tile_server_adds_only_its_own_origin_to_the_images_allowed():
    code, out = _csp_img_src(DOGCASE_MAP_TILES="https://{s}.tiles.example.org/osm/{z}/{x}/{y}.png")
    assert code == 0, out
    assert json.loads(out) == ["'self'", "data:", "https://*.tiles.example.org"]


@pytest.mark.parametrize(
    "template", ["javascript:alert(1)", "tiles/{z}/{x}/{y}.png", "https://{z}.example.org/a"]
)
def test_a_tile_template_that_is_not_an_http_url_is_refused_at_start(template):
    code, out = _csp_img_src(DOGCASE_MAP_TILES=template)
    assert code != 0 and "DOGCASE_MAP_TILES" in out
