"""dogcase settings: one file, configured by environment variables, with safe defaults for development.

Environment variables (all optional in development):

    DEBUG                 True/False (default True). Production must set False.
    SECRET_KEY            required when DEBUG is False; in development one is generated into var/secret_key.
    ALLOWED_HOSTS         comma-separated (development default: localhost,127.0.0.1).
    CSRF_TRUSTED_ORIGINS  comma-separated origins, e.g. https://dogcase.example.org.
    DATABASE_URL          e.g. postgres://user@127.0.0.1:5432/dogcase; default SQLite in var/dogcase.sqlite3.
    DB_CONN_MAX_AGE       seconds to keep database connections (default 0).
    DOGCASE_PG_JIT        off/server: PostgreSQL's JIT asked off by each connection, or by the server (default off).
    DOGCASE_PG_PREPARE    on/off: the dashboard's statements prepared once a PostgreSQL connection (default on).
    SECURE_COOKIES        True/False: session and CSRF cookies over HTTPS only (default: not DEBUG).
    SECURE_PROXY_SSL      True/False: trust X-Forwarded-Proto from the proxy in front (default False).
    DOGCASE_VAR_DIR       where local state lives (default var/ in the checkout).
    DOGCASE_MEDIA_DIR     where evidence and proof files are stored (default var/media).
    DOGCASE_MAX_UPLOAD_BYTES  largest evidence/proof file accepted (default 10 MiB).
    DOGCASE_MAX_REQUEST_BYTES largest request body accepted, judged from its declared Content-Length before any
                          of it is read (default 6 x DOGCASE_MAX_UPLOAD_BYTES: five files and the form); 413 above.
    DOGCASE_MAX_IMAGE_PIXELS  largest image (width x height) accepted as proof (default 40000000); every image
                          is decoded within this bound and re-encoded before it is stored.
    DOGCASE_SITE_URL      the site's address, the host of every link dogcase prints or sends: the owner's portal
                          and access code on a notice and a code slip, the links in e-mails, the verification link
                          in every document's footer (e.g. https://dogcase.example.org). Required in production
                          (`check --deploy` fails, dogcase.E103; `make serve` refuses to start without it); in
                          development `make run` passes the serving address, else http://127.0.0.1:8000.
    DOGCASE_AUDIT_KEY     the audit chain's key (HMAC-SHA256), at least 32 characters, kept outside the database;
                          required when DEBUG is False (or DOGCASE_AUDIT_KEY_FILE: a file holding it).

Production (docs/deploy.md; the defaults follow DEBUG, so DEBUG=False alone is already strict):

    SECURE_SSL_REDIRECT   True/False: redirect http:// to https:// (default: not DEBUG).
    SECURE_HSTS_SECONDS   Strict-Transport-Security max-age (default 31536000 when DEBUG is False, else 0).
    SECURE_HSTS_INCLUDE_SUBDOMAINS  True/False (default: not DEBUG).
    SECURE_HSTS_PRELOAD   True/False (default False: joining browsers' preload list is the domain owner's call).
    DOGCASE_STORAGE       "local" (MEDIA_ROOT, the default) or "s3" (django-storages, an optional extra).
    DOGCASE_S3_BUCKET, DOGCASE_S3_ENDPOINT_URL, DOGCASE_S3_REGION  the S3-compatible store when DOGCASE_STORAGE=s3
                          (credentials: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, read by boto3 itself).
    LOG_FORMAT            "json" (one JSON object a line; default when DEBUG is False) or "text".
    LOG_LEVEL             default INFO.
"""

import os
import secrets
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP


def envbool(name: str, default: str) -> bool:
    """Read a boolean strictly: only "True" or "False" (like healthchecks), so a typo never flips a switch."""
    value = os.getenv(name, default)
    if value not in ("True", "False"):
        raise ImproperlyConfigured(f"Unexpected value {name}={value!r}, use 'True' or 'False'")
    return value == "True"


def envint(name: str, default: str) -> int:
    value = os.getenv(name, default)
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"Unexpected value {name}={value!r}, use an integer") from None


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.getenv(name, default).split(",") if item.strip()]


BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.getenv("DOGCASE_VAR_DIR", BASE_DIR / "var"))

DEBUG = envbool("DEBUG", "True")


def _development_secret_key() -> str:
    # Generated once so sessions survive restarts, and never committed (var/ is ignored by git).
    path = VAR_DIR / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    try:
        with open(path, "x") as f:
            f.write(key)
    except FileExistsError:
        # Another process won the race; use its key.
        return path.read_text().strip()
    path.chmod(0o600)
    return key


if os.getenv("SECRET_KEY"):
    SECRET_KEY = os.environ["SECRET_KEY"]
elif DEBUG:
    SECRET_KEY = _development_secret_key()
else:
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is False")

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "localhost,127.0.0.1" if DEBUG else "")
if not DEBUG and not ALLOWED_HOSTS:
    # Otherwise every request would be refused with a 400 that says nothing about why.
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is False, e.g. dogcase.example.org")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    # Our apps first, so their templates (registration/login.html) win over contrib's.
    "dogcase.staff",
    "dogcase.law_pages",
    "dogcase.cases",
    "dogcase.documents",
    "dogcase.owners",
    "dogcase.proofs",
    "dogcase.money",
    "dogcase.imports",
    "dogcase.exports",
    "dogcase.reports",
    "django.contrib.admin",
    "django.contrib.humanize",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "ninja",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A body larger than DOGCASE_MAX_REQUEST_BYTES is refused from its Content-Length, unread; every page
    # (not the static files above) is no-store unless its view says otherwise (dogcase.ops.hardening).
    "dogcase.ops.hardening.RequestSizeLimit",
    "dogcase.ops.hardening.NoStoreByDefault",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "dogcase.staff.middleware.RejectNulCharacters",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "dogcase.accounts.context.account_links",
            ],
        },
    },
]

if os.getenv("DATABASE_URL"):
    DATABASES = {
        "default": dj_database_url.parse(
            os.environ["DATABASE_URL"], conn_max_age=envint("DB_CONN_MAX_AGE", "0")
        )
    }
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "dogcase.sqlite3",
            # Writers take the lock when their transaction starts, so two acts on one case queue up
            # instead of both reading the audit chain's head and one failing half-way.
            "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
        }
    }

# Every statement of dogcase reads a few rows through an index. PostgreSQL's JIT compiles a statement whose
# estimated cost passes jit_above_cost, and that estimate is high for a bounded read of many small parts (a
# dashboard's list read a (city, deadline) pair at a time: 30 ms compiling, 3 ms reading); here it never pays
# back. "off" (the default): dogcase's connections ask for it off when they connect (after any PGOPTIONS or
# ?options= of the URL); "server": they ask nothing, for a connection pooler that refuses startup options
# (PgBouncer), where `ALTER ROLE dogcase SET jit = off` does the same (docs/deploy.md).
DOGCASE_PG_JIT = os.getenv("DOGCASE_PG_JIT", "off")
if DOGCASE_PG_JIT not in ("off", "server"):
    raise ImproperlyConfigured(f"Unexpected value DOGCASE_PG_JIT={DOGCASE_PG_JIT!r}, use 'off' or 'server'")
if DATABASES["default"]["ENGINE"].endswith(("postgresql", "postgis")) and DOGCASE_PG_JIT == "off":
    _pg_options = DATABASES["default"].setdefault("OPTIONS", {})
    _given = _pg_options.get("options") or os.getenv("PGOPTIONS", "")
    _given = " ".join(_given) if isinstance(_given, list | tuple) else _given
    _pg_options["options"] = f"{_given} -c jit=off".strip()

# The dashboard's statements are the same words at every request of a user's kind of dashboard but for the moment
# (dogcase/staff/prepared.py): "on" (the default) prepares each once on a PostgreSQL connection and sends only the
# moment after, planned once for every moment (plan_cache_mode force_generic_plan, asked when the connection
# opens where startup options are allowed, DOGCASE_PG_JIT=off; else `ALTER ROLE dogcase SET plan_cache_mode =
# force_generic_plan` on the server); "off" for a pooler that hands a session's statements to other server
# connections (PgBouncer in transaction mode). dogcase prepares no other statement: Django's cursors bind their
# values on the client and never prepare (OPTIONS "server_side_binding" would let psycopg prepare every
# statement, which this setting would then plan generically too).
DOGCASE_PG_PREPARE = os.getenv("DOGCASE_PG_PREPARE", "on")
if DOGCASE_PG_PREPARE not in ("on", "off"):
    raise ImproperlyConfigured(
        f"Unexpected value DOGCASE_PG_PREPARE={DOGCASE_PG_PREPARE!r}, use 'on' or 'off'"
    )
if (
    DATABASES["default"]["ENGINE"].endswith(("postgresql", "postgis"))
    and DOGCASE_PG_JIT == "off"
    and DOGCASE_PG_PREPARE == "on"
):
    DATABASES["default"]["OPTIONS"]["options"] += " -c plan_cache_mode=force_generic_plan"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 12}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "staff:home"
LOGOUT_REDIRECT_URL = "staff:home"

LANGUAGE_CODE = "en-us"
# Staff pages are English (no LocaleMiddleware: a browser's language never changes them). An owner's
# documents are written in the owner's preferred language (Person.preferred_language): the legal text stays
# English, with an explanation in that language beside it, from the catalogue in dogcase/locale.
LANGUAGES = [("en", "English"), ("es", "Spanish")]
LOCALE_PATHS = [BASE_DIR / "dogcase" / "locale"]
# Every city dogcase serves is in Minnesota; deadlines are computed in this zone.
TIME_ZONE = "America/Chicago"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
# Files a browser asks for at the site's root (/favicon.ico), served by WhiteNoise like the static files.
WHITENOISE_ROOT = BASE_DIR / "dogcase" / "staff" / "public"
if DEBUG:
    # WhiteNoise warns when STATIC_ROOT is missing; in development, before any collectstatic, it is empty.
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)
# Evidence and proof files: stored once under their SHA-256, never overwritten, served only to staff of the
# record's city (dogcase.cases.files).
MEDIA_ROOT = Path(os.getenv("DOGCASE_MEDIA_DIR", VAR_DIR / "media"))
MEDIA_URL = "/files/"
DOGCASE_MAX_UPLOAD_BYTES = envint("DOGCASE_MAX_UPLOAD_BYTES", str(10 * 1024 * 1024))
DOGCASE_MAX_REQUEST_BYTES = envint("DOGCASE_MAX_REQUEST_BYTES", str(6 * DOGCASE_MAX_UPLOAD_BYTES))
DOGCASE_MAX_IMAGE_PIXELS = envint("DOGCASE_MAX_IMAGE_PIXELS", "40000000")
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
# The host of every link dogcase prints or sends (dogcase.owners.urls_util.site_url: the portal on a notice and
# a code slip, the links in e-mails, /verify/<code> in every document's footer). A batch job (the sweep, the
# worker, seed_demo) has no request to take a host from: the one setting gives it.
if os.getenv("DOGCASE_PUBLIC_URL"):
    raise ImproperlyConfigured(
        "DOGCASE_PUBLIC_URL is replaced by DOGCASE_SITE_URL (one address for every link): set DOGCASE_SITE_URL"
    )
DOGCASE_SITE_URL = os.getenv("DOGCASE_SITE_URL", "http://127.0.0.1:8000" if DEBUG else "").strip().rstrip("/")
if DOGCASE_SITE_URL and (
    not DOGCASE_SITE_URL.startswith(("http://", "https://"))
    or not DOGCASE_SITE_URL.split("://", 1)[1]
    or any(c in DOGCASE_SITE_URL for c in "?# ")
):
    raise ImproperlyConfigured(
        f"Unexpected value DOGCASE_SITE_URL={DOGCASE_SITE_URL!r}: give the site's address, e.g. "
        "https://dogcase.example.org"
    )

# The audit chain is keyed (dogcase.cases.audit): someone who can write the database but does not hold this
# key cannot recompute the hash of an event they changed. Changing the key makes every event written with the
# old one fail `dogcase audit verify`: keep it with the backups, apart from the database's.
DEVELOPMENT_AUDIT_KEY = "dogcase development audit key - not a secret, never for production"
if os.getenv("DOGCASE_AUDIT_KEY_FILE"):
    try:
        DOGCASE_AUDIT_KEY = Path(os.environ["DOGCASE_AUDIT_KEY_FILE"]).read_text().strip()
    except OSError as exc:
        raise ImproperlyConfigured(f"DOGCASE_AUDIT_KEY_FILE cannot be read: {exc}") from None
else:
    DOGCASE_AUDIT_KEY = os.getenv("DOGCASE_AUDIT_KEY", "")
if not DOGCASE_AUDIT_KEY and DEBUG:
    DOGCASE_AUDIT_KEY = DEVELOPMENT_AUDIT_KEY
elif not DOGCASE_AUDIT_KEY:
    raise ImproperlyConfigured("DOGCASE_AUDIT_KEY must be set when DEBUG is False")
elif not DEBUG and (DOGCASE_AUDIT_KEY == DEVELOPMENT_AUDIT_KEY or len(DOGCASE_AUDIT_KEY) < 32):
    raise ImproperlyConfigured(
        "DOGCASE_AUDIT_KEY must be a secret of at least 32 characters when DEBUG is False, not the development "
        "key (e.g. python -c 'import secrets; print(secrets.token_urlsafe(48))')"
    )

STORAGES = {
    # Evidence and proof files; see "Production" below for an S3-compatible store.
    "default": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        # never rewritten; readable by the service's own user and group, not by every account on the machine
        "OPTIONS": {"file_permissions_mode": 0o440, "directory_permissions_mode": 0o750},
    },
    "staticfiles": {
        # Hashed names need `collectstatic`, which production runs and development does not.
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Security: cookies over HTTPS only outside development; no framing; no sniffing.
SECURE_COOKIES = envbool("SECURE_COOKIES", str(not DEBUG))
SESSION_COOKIE_SECURE = SECURE_COOKIES
CSRF_COOKIE_SECURE = SECURE_COOKIES
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
# Content Security Policy: our pages load only their own script, styles and images, never inline code, so an
# injected <script> would not run even if escaping ever failed. (Evidence downloads set a stricter sandbox.)
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}

# The map (docs/data.md, "The map"). Its base is blank unless the deployment names a tile server: an XYZ URL
# template such as https://tiles.example.org/{z}/{x}/{y}.png (the city's own, or an OpenStreetMap tile server
# it may use), with the attribution its licence asks for. Only that server's origin is added to img-src.
DOGCASE_MAP_TILES = os.getenv("DOGCASE_MAP_TILES", "").strip()
DOGCASE_MAP_ATTRIBUTION = os.getenv("DOGCASE_MAP_ATTRIBUTION", "").strip()
if DOGCASE_MAP_TILES:
    from urllib.parse import urlsplit

    _tiles = urlsplit(DOGCASE_MAP_TILES.replace("{s}", "*"))
    if _tiles.scheme not in ("https", "http") or not _tiles.netloc or "{" in _tiles.netloc:
        raise ImproperlyConfigured(
            "DOGCASE_MAP_TILES must be an http(s) URL template such as https://host/{z}/{x}/{y}.png"
        )
    SECURE_CSP["img-src"].append(f"{_tiles.scheme}://{_tiles.netloc}")
# A Nominatim-compatible search URL (e.g. https://nominatim.example.org/search): "Find from the address" asks it,
# at most DOGCASE_GEOCODER_TIMEOUT seconds. Unset, no address is ever sent anywhere. A key, if the service
# needs one, goes in the URL from the environment, never in the repository.
DOGCASE_GEOCODER_URL = os.getenv("DOGCASE_GEOCODER_URL", "").strip()
DOGCASE_GEOCODER_TIMEOUT = envint("DOGCASE_GEOCODER_TIMEOUT", "5")
DOGCASE_GEOCODER_USER_AGENT = os.getenv("DOGCASE_GEOCODER_USER_AGENT", "dogcase (city dangerous-dog records)")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if envbool("SECURE_PROXY_SSL", "False"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")


# ------------------------------------------------------------------------------------------------------------
# Production: HTTPS, the health check, stored files and logs (docs/deploy.md). Kept in one block on purpose.

SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", str(not DEBUG))
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000")
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", str(not DEBUG))
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", "False")
SILENCED_SYSTEM_CHECKS = []
if not SECURE_HSTS_PRELOAD:
    # check --deploy asks for preload; putting a city's domain on the browsers' preload list binds every
    # other service on that domain to HTTPS for good: a decision for its owner, not a default (docs/deploy.md).
    SILENCED_SYSTEM_CHECKS.append("security.W021")
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # an index's included columns (cases 0024: the report's obligations read from the index alone) are for
    # PostgreSQL; SQLite makes the index without them, as intended
    SILENCED_SYSTEM_CHECKS.append("models.W040")

# /healthz answers before the host check and the HTTPS redirect (a load balancer asks by address, over plain
# HTTP on the private network); every other request is logged once.
MIDDLEWARE = [
    "dogcase.ops.health.HealthCheck",
    "dogcase.ops.logs.RequestLog",
    # a law pack written on the running server is used from the next request (checked at most this often)
    "dogcase.ops.lawreload.LawReload",
    *MIDDLEWARE,
]
# How often (seconds) each web process looks whether a law pack file was written; 0: never (a restart takes it).
DOGCASE_LAW_RELOAD_SECONDS = envint("DOGCASE_LAW_RELOAD_SECONDS", "10")

DOGCASE_STORAGE = os.getenv("DOGCASE_STORAGE", "local")
if DOGCASE_STORAGE == "s3":
    # django-storages is an optional extra (pip install "django-storages[s3]"); nothing else changes.
    STORAGES["default"] = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": os.getenv("DOGCASE_S3_BUCKET", ""),
            "endpoint_url": os.getenv("DOGCASE_S3_ENDPOINT_URL") or None,
            "region_name": os.getenv("DOGCASE_S3_REGION") or None,
            "default_acl": "private",
            "querystring_auth": True,
            "file_overwrite": False,
        },
    }
    if not STORAGES["default"]["OPTIONS"]["bucket_name"]:
        raise ImproperlyConfigured("DOGCASE_STORAGE=s3 needs DOGCASE_S3_BUCKET")
elif DOGCASE_STORAGE != "local":
    raise ImproperlyConfigured(f"Unexpected value DOGCASE_STORAGE={DOGCASE_STORAGE!r}, use 'local' or 's3'")

LOG_FORMAT = os.getenv("LOG_FORMAT", "text" if DEBUG else "json")
if LOG_FORMAT not in ("json", "text"):
    raise ImproperlyConfigured(f"Unexpected value LOG_FORMAT={LOG_FORMAT!r}, use 'json' or 'text'")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "dogcase.ops.logs.JsonFormatter"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            # JSON lines on stdout for the journal or the log collector; text stays on stderr in development,
            # apart from the JSON answers the `dogcase` command writes to stdout.
            **({"formatter": "json", "stream": "ext://sys.stdout"} if LOG_FORMAT == "json" else {}),
        }
    },
    "root": {"handlers": ["console"], "level": os.getenv("LOG_LEVEL", "INFO")},
    # Every request is logged once by dogcase.ops.logs (with its id, user, status and duration); Django's
    # own request and server loggers would log errors a second time without them.
    "loggers": {
        "django.request": {"handlers": ["console"], "level": "ERROR", "propagate": False},
        # runserver's line per request repeats dogcase.ops.logs' own; its warnings and errors still come through
        "django.server": {"handlers": ["console"], "level": "WARNING", "propagate": False},
        # WeasyPrint's steps of every PDF ("Step 5 - Creating layout") and its notes on unsupported CSS:
        # nothing an operator acts on; its errors still come through
        "weasyprint": {"level": "ERROR"},
        "weasyprint.progress": {"level": "ERROR"},
        # fontTools notes every glyph table it subsets for each PDF (thousands of lines for the demo)
        "fontTools": {"level": "WARNING"},
    },
}

# ------------------------------------------------------------------------------------------------------------
# Logging in and sessions (issue 11, item 7). Kept in one block, apart from the production settings above.
#
#   DOGCASE_LOGIN_FAILURE_LIMIT     failed logins for one username from one address before it is locked
#                                   (default 5; the username alone and the address alone allow 4 times that).
#   DOGCASE_LOGIN_LOCKOUT_SECONDS   how long a lock lasts, and the window failures are counted in (default 900).
#   DOGCASE_CLIENT_IP_HEADER        behind a reverse proxy, the header carrying the client's address, e.g.
#                                   X-Forwarded-For (its last entry is used); unset: REMOTE_ADDR.
#   DOGCASE_TRUSTED_PROXIES         comma-separated addresses or networks of the proxy in front (default
#                                   127.0.0.1,::1): DOGCASE_CLIENT_IP_HEADER is believed only on a request that
#                                   comes from one of them; from anywhere else REMOTE_ADDR is the client.
#   DOGCASE_SESSION_IDLE_SECONDS    a session with no request for this long is logged out (default 1800).
#   DOGCASE_SESSION_MAX_SECONDS     a session ends this long after login whatever happens (default 43200).
INSTALLED_APPS.insert(INSTALLED_APPS.index("dogcase.cases") + 1, "dogcase.accounts")
AUTHENTICATION_BACKENDS = ["dogcase.accounts.backends.ThrottledModelBackend"]
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.contrib.auth.middleware.AuthenticationMiddleware") + 1,
    "dogcase.accounts.middleware.IdleSessionTimeout",
)
DOGCASE_LOGIN_FAILURE_LIMIT = envint("DOGCASE_LOGIN_FAILURE_LIMIT", "5")
DOGCASE_LOGIN_LOCKOUT_SECONDS = envint("DOGCASE_LOGIN_LOCKOUT_SECONDS", "900")
DOGCASE_CLIENT_IP_HEADER = os.getenv("DOGCASE_CLIENT_IP_HEADER", "")
DOGCASE_TRUSTED_PROXIES = envlist("DOGCASE_TRUSTED_PROXIES", "127.0.0.1,::1")
DOGCASE_SESSION_IDLE_SECONDS = envint("DOGCASE_SESSION_IDLE_SECONDS", "1800")
SESSION_COOKIE_AGE = envint("DOGCASE_SESSION_MAX_SECONDS", "43200")

# ------------------------------------------------------------------------------------------------------------
# Messages and background jobs (issue 9, item 4-5). Kept in one block.
#
#   EMAIL_HOST            the SMTP server that sends dogcase's e-mail; unset in development: e-mail is written
#                         to the worker's log (console) instead of sent. Needed when DEBUG is False.
#   EMAIL_PORT            default 587 (465 with EMAIL_USE_SSL).
#   EMAIL_HOST_USER, EMAIL_HOST_PASSWORD  the SMTP login, if the server asks for one.
#   EMAIL_USE_TLS         True/False: STARTTLS (default True when EMAIL_HOST is set).
#   EMAIL_USE_SSL         True/False: SMTP over TLS from the first byte (port 465; default False).
#   EMAIL_TIMEOUT         seconds before a connection to the SMTP server is given up (default 30).
#   DEFAULT_FROM_EMAIL    the sender of every message, e.g. "City of Battle Lake <animals@battlelake.example>".
#   DOGCASE_MAIL_RETRY_SECONDS  the waits before each retry of a message the SMTP server refused or could not be
#                         reached for, comma-separated (default 60,300,1800,7200: five attempts in all).
#   DOGCASE_TASKS_BACKEND the task backend (default django_tasks_db.DatabaseBackend: jobs are rows in the
#                         database, run by `manage.py db_worker`).
#   DOGCASE_STUCK_SECONDS a send job running, or a message being sent or queued without a job, this long is
#                         taken as left by a worker that stopped (`manage.py recover_stuck`; default 600).
INSTALLED_APPS += ["django_tasks_db", "dogcase.messaging"]
TASKS = {
    "default": {
        "BACKEND": os.getenv("DOGCASE_TASKS_BACKEND", "django_tasks_db.DatabaseBackend"),
        "QUEUES": ["default"],
    }
}
# Django's mailers (MAILERS), from the EMAIL_* variables. In development without a server, messages are
# written to the worker's log; in production without one, `check --deploy` warns (dogcase.W101) and every
# message fails to its staff task (serve on paper).
DOGCASE_EMAIL_HOST = os.getenv("EMAIL_HOST", "")
_email_ssl = envbool("EMAIL_USE_SSL", "False")
_email_tls = envbool("EMAIL_USE_TLS", str(bool(DOGCASE_EMAIL_HOST) and not _email_ssl))
if _email_tls and _email_ssl:
    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL are exclusive: set one of them to True")
if DEBUG and not DOGCASE_EMAIL_HOST:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
else:
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": DOGCASE_EMAIL_HOST or "localhost",
                "port": envint("EMAIL_PORT", "465" if _email_ssl else "587"),
                "username": os.getenv("EMAIL_HOST_USER", ""),
                "password": os.getenv("EMAIL_HOST_PASSWORD", ""),
                "use_tls": _email_tls,
                "use_ssl": _email_ssl,
                "timeout": envint("EMAIL_TIMEOUT", "30"),
            },
        }
    }
DEFAULT_FROM_EMAIL = os.getenv("DEFAULT_FROM_EMAIL", "dogcase@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
try:
    DOGCASE_MAIL_RETRY_SECONDS = [int(s) for s in envlist("DOGCASE_MAIL_RETRY_SECONDS", "60,300,1800,7200")]
except ValueError:
    raise ImproperlyConfigured("DOGCASE_MAIL_RETRY_SECONDS must be whole seconds, comma-separated") from None
DOGCASE_STUCK_SECONDS = envint("DOGCASE_STUCK_SECONDS", "600")
# The owner's portal (dogcase.owners): its own session keys, short sessions, sign-in by code and one fact.
#   (the portal's address on the owner's notices is DOGCASE_SITE_URL's /owner/ page, above)
#   DOGCASE_OWNER_SESSION_IDLE_SECONDS      an owner's sign-in ends after this long without a request (1800).
#   DOGCASE_OWNER_SESSION_MAX_SECONDS       and this long after it began, however active (28800, 8 hours).
#   DOGCASE_OWNER_LINK_MINUTES              the one-time e-mailed sign-in link works for this long (30).
#   DOGCASE_OWNER_LINKS_AT_ONCE             at most this many unused, unexpired links for one code (3): asking
#                                           again sends no more mail until one is used or expires. Links are
#                                           e-mailed by the worker (dogcase.owners.tasks), not by the web request.
#   DOGCASE_OWNER_SIGN_IN_FAILURE_LIMIT     wrong answers for one code from one address before it is locked there
#                                           for DOGCASE_LOGIN_LOCKOUT_SECONDS (5; an address may fail 4 times as
#                                           often; a code from any address 4 times as often, locked 4 times as
#                                           long, except from an address it signed in from before).
DOGCASE_OWNER_SESSION_IDLE_SECONDS = envint("DOGCASE_OWNER_SESSION_IDLE_SECONDS", "1800")
DOGCASE_OWNER_SESSION_MAX_SECONDS = envint("DOGCASE_OWNER_SESSION_MAX_SECONDS", "28800")
DOGCASE_OWNER_LINK_MINUTES = envint("DOGCASE_OWNER_LINK_MINUTES", "30")
DOGCASE_OWNER_LINKS_AT_ONCE = envint("DOGCASE_OWNER_LINKS_AT_ONCE", "3")
DOGCASE_OWNER_SIGN_IN_FAILURE_LIMIT = envint("DOGCASE_OWNER_SIGN_IN_FAILURE_LIMIT", "5")
