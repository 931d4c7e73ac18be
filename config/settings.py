"""Chronique settings: one module, every value from the environment.

Defaults make a fresh clone run (SQLite file, tasks in-process, DEBUG off, localhost only);
production values come from the environment and `manage.py check --deploy` passes with them.
Every variable is documented in `.env.example`.
"""

from datetime import timedelta
from pathlib import Path

import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.release import code_release

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DEBUG", default=False)
# The default key only serves a local checkout; production sets SECRET_KEY.
# It is public (it is in this file): `manage.py check --deploy` fails while it is in use
# (config/checks.py).
DEVELOPMENT_SECRET_KEY = "chronique-local-development-key-not-for-production-use-0123456789"
SECRET_KEY = env.str("SECRET_KEY", default=DEVELOPMENT_SECRET_KEY)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    # daphne first: `manage.py runserver` then serves ASGI, WebSockets included.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "template_partials",
    "axes",
    "csp",
    "channels",
    "characters",
    "campaigns",
    "rules",
    "config",
]

MIDDLEWARE = [
    # First: a restore empties a per-process cache before anything reads it.
    "config.middleware.RestoreStampMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "config.middleware.LanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # Django's, with the player's row kept in the cache between requests (config/auth.py).
    "config.auth.CachedAuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.middleware.RefusalMiddleware",
    # AxesMiddleware last: it turns a lockout into the page that explains it.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            # No `i18n` processor: no template reads LANGUAGE_CODE, LANGUAGES or
            # LANGUAGE_BIDI from the context (the layout's tag gives its parts the language,
            # print pages ask `{% get_current_language %}`), and every page paid for it.
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # `|bdi`: user text isolated among the page's words (characters/bidi.py).
            "builtins": [
                "characters.templatetags.bidi",
                "characters.templatetags.chance",
                "characters.typography",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------
DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'chronique.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] in {
    "django.db.backends.postgresql",
    "django.db.backends.postgresql_psycopg2",
}:
    DATABASES["default"]["ENGINE"] = "django.db.backends.postgresql"
    # Django's psycopg 3 pool: connections are reused, not opened per request.
    DATABASES["default"].setdefault("OPTIONS", {})
    if env.bool("DATABASE_POOL", default=True):
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "min_size": env.int("DATABASE_POOL_MIN", default=1),
            "max_size": env.int("DATABASE_POOL_MAX", default=10),
            "timeout": env.int("DATABASE_POOL_TIMEOUT", default=10),
        }
    DATABASES["default"]["OPTIONS"].setdefault("connect_timeout", 5)
    DATABASES["default"]["CONN_MAX_AGE"] = 0
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].setdefault("transaction_mode", "IMMEDIATE")
    DATABASES["default"]["OPTIONS"].setdefault("timeout", 20)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Per-process memory by default; a shared Redis cache in production keeps API throttles
# counting across gunicorn workers (CACHE_URL=redis://redis:6379/1).
CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://")}
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    # Django's, with its Redis client kept instead of built for every operation.
    CACHES["default"]["BACKEND"] = "config.cache.KeptClientRedisCache"
# Everything kept in the cache is named under the release, the code itself
# (config/release.py): a deploy, or an edit, never serves what other code kept.
RELEASE = code_release(BASE_DIR, SECRET_KEY)
CACHES["default"]["KEY_PREFIX"] = RELEASE
# Sessions read from the cache, written through to the database: a page no longer costs a
# query for its session, nor one for its player (config/auth.py). More than one server
# process needs the shared cache above (CACHE_URL), or a logout in one would not reach
# the others' copies.
SESSION_ENGINE = env.str("SESSION_ENGINE", default="django.contrib.sessions.backends.cached_db")
AUTH_USER_CACHE_SECONDS = env.int("AUTH_USER_CACHE_SECONDS", default=300)
# Written by `manage.py restore`; a server with a per-process cache empties it when it
# changes (config/middleware.py). Shared by the server and the restore: one machine.
RESTORE_STAMP = env.path("RESTORE_STAMP", default=VAR_DIR / "restore-stamp")
# A KOLAPS unit's print and each character's print sheet, kept as rendered under a key
# naming all they show (characters/kolaps/views.py `_print_page`, printing.py); 0 renders
# every sheet on every request.
KOLAPS_SHEET_CACHE_SECONDS = env.int("KOLAPS_SHEET_CACHE_SECONDS", default=3600)
# The KOLAPS unit page and the list of a player's units and characters as sent, likewise
# (characters/kolaps/views.py `_unit_page`, `_list_page`).
KOLAPS_UNIT_CACHE_SECONDS = env.int("KOLAPS_UNIT_CACHE_SECONDS", default=3600)
# A campaign page's chapters and history, kept as rendered under keys naming all they show
# (campaigns/views.py `campaign_detail`, cards.fragment_key); 0 renders them every time.
CAMPAIGN_FRAGMENT_CACHE_SECONDS = env.int("CAMPAIGN_FRAGMENT_CACHE_SECONDS", default=3600)
# The live table's page as sent, kept under a key naming all it shows, the encounter's
# version among them (rules/table/views.py `table_encounter`): phones poll it far more often
# than the encounter changes. 0 renders it on every request.
TABLE_PAGE_CACHE_SECONDS = env.int("TABLE_PAGE_CACHE_SECONDS", default=3600)

# --- Accounts -------------------------------------------------------------------------
AUTH_USER_MODEL = "characters.Player"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# argon2id at OWASP's minimum (19 MiB, 2 iterations, 1 lane), at most
# PASSWORD_HASHES_AT_ONCE per process: config/hashers.py.
PASSWORD_HASHERS = [
    "config.hashers.Argon2idHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
PASSWORD_HASHES_AT_ONCE = env.int("PASSWORD_HASHES_AT_ONCE", default=1)
# Login attempts (the page and the API's token) one address may make in a minute, whatever
# the names tried; more are answered 429 with a sentence (characters/accounts/throttles.py).
LOGIN_ATTEMPTS_PER_MINUTE = env.int("LOGIN_ATTEMPTS_PER_MINUTE", default=20)
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "home"

# Login lockout: 5 failures for one account from one address within 15 minutes.
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=15)  # the lockout page says "15 minutes"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/lockout.html"
AXES_VERBOSE = False
AXES_IPWARE_META_PRECEDENCE_ORDER = ["REMOTE_ADDR"]

# --- Internationalisation: French first, English second -------------------------------
LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", _("Français")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("TIME_ZONE", default="Europe/Paris")
USE_I18N = True
USE_TZ = True

# --- Static files (vendored htmx and stylesheet, served by WhiteNoise) -----------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles")
MEDIA_URL = "media/"
MEDIA_ROOT = env.path("MEDIA_ROOT", default=VAR_DIR / "media")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": env.str(
            "STATICFILES_STORAGE", default="whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# --- E-mail: console by default, SMTP when EMAIL_URL says so ---------------------------
_email = env.email_url("EMAIL_URL", default="consolemail://")
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_HOST = _email.get("EMAIL_HOST", "")
EMAIL_PORT = _email.get("EMAIL_PORT") or 25
EMAIL_HOST_USER = _email.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = _email.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _email.get("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = _email.get("EMAIL_USE_SSL", False)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Chronique <noreply@chronique.local>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# The address of the site, for the links of e-mails sent by tasks (no request at hand).
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")

# --- Security: safe defaults, production switches from the environment -----------------
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=False)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=False)
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=False)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
if env.bool("BEHIND_TLS_PROXY", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# No inline script, no eval: htmx reads its configuration from a <meta> tag.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "object-src": [NONE],
    },
}

# --- API --------------------------------------------------------------------------------
# What a request may carry: a body of at most 512 KB (a unit file is a few KB), JSON
# nested at most 32 levels; larger is refused with a sentence (config/api.py).
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=512 * 1024)
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000
# The largest body any request may have, files included: daphne refuses more as soon as
# the headers say so, before storing a byte (config/asgi_gate.py); the proxy caps bodies at
# the same size (docker-compose.yml).
REQUEST_BODY_MAX = env.int("REQUEST_BODY_MAX", default=16 * 1024 * 1024)
# A whole upload (a file and the form around it): beyond, refused with a 413 before the
# rest is read (config/uploads.py); a little over DATA_UPLOAD_MAX_MEMORY_SIZE, so that a
# file just too large is told so by its importer's form, in its own sentence.
UPLOAD_MAX_BYTES = env.int("UPLOAD_MAX_BYTES", default=DATA_UPLOAD_MAX_MEMORY_SIZE + 64 * 1024)
FILE_UPLOAD_HANDLERS = [
    "config.uploads.LimitedUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]
API_MAX_JSON_DEPTH = 32
# What one account may import in 24 hours: campaigns, and the inactive accounts their
# players become (campaigns/transfer): an import is refused with a sentence beyond.
CAMPAIGN_IMPORTS_PER_DAY = env.int("CAMPAIGN_IMPORTS_PER_DAY", default=20)
CAMPAIGN_IMPORT_ACCOUNTS_PER_DAY = env.int("CAMPAIGN_IMPORT_ACCOUNTS_PER_DAY", default=400)
# The years a chapter may be planned in: a date outside is refused with a sentence.
CHAPTER_YEARS = (2000, 2199)

REST_FRAMEWORK = {
    "DEFAULT_PARSER_CLASSES": [
        "config.api.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: an anonymous request then gets 401 with `WWW-Authenticate: Token`.
        # DRF's, with the token's player kept in the cache between requests (config/auth.py).
        "config.auth.CachedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "EXCEPTION_HANDLER": "config.api.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Chronique API",
    "DESCRIPTION": (
        "Campaigns, characters and rules of tabletop skirmish games. Session authentication "
        "for the browser, token authentication (`Authorization: Token <key>`) for scripts."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.schema.declare_errors",
        "config.schema.system_fields",
    ],
}

# --- Celery: Redis when CELERY_BROKER_URL is set, in-process otherwise ------------------
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default=CELERY_BROKER_URL or None)
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = timedelta(days=1)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Longer than the longest task plus any retry countdown, so acks_late never redelivers
# a task that is still running (checked below against the settlement's limits). Redis
# puts back the tasks of a worker that died without acknowledging them once this timeout
# has passed; the sweep that does it runs every `unacked_restore_interval` seconds
# (`unacked_restore_throttle` 1: every sweep really scans) instead of kombu's ~100 s.
_visibility_timeout = env.int("CELERY_VISIBILITY_TIMEOUT", default=3600)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": _visibility_timeout,
    "unacked_restore_interval": env.int("CELERY_UNACKED_RESTORE_INTERVAL", default=10),
    "unacked_restore_throttle": 1,
}
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="chronique")
# Seconds a worker waits for the result of a child process that died before it reports
# the task lost (and, with reject_on_worker_lost, puts it back in the queue).
CELERY_WORKER_LOST_WAIT = env.float("CELERY_WORKER_LOST_WAIT", default=10.0)
# Periodic work run by `celery beat` (compose's `beat` service, `make beat`): votes close
# themselves at their closing date and remind their players VOTE_REMINDER_HOURS before.
VOTE_REMINDER_BEFORE = timedelta(hours=env.int("VOTE_REMINDER_HOURS", default=24))
# EMBEDDED_BEAT: run this schedule in the ASGI server's process instead (`make run`, which
# has no broker and no beat): config/embedded_beat.py. Never with a real beat running.
EMBEDDED_BEAT = env.bool("EMBEDDED_BEAT", default=False)
EMBEDDED_BEAT_TICK = 5.0
CELERY_BEAT_SCHEDULE = {
    "votes-close-due": {
        "task": "campaigns.chapters.tasks.votes_close_due",
        "schedule": env.float("VOTES_CLOSE_EVERY", default=60.0),
    },
    "votes-remind-due": {
        "task": "campaigns.notifications.tasks.votes_remind_due",
        "schedule": env.float("VOTES_REMIND_EVERY", default=300.0),
    },
}

# --- The post-chapter settlement (docs/settlement.md) ---------------------------------------
SETTLEMENT_TIME_LIMIT = env.int("SETTLEMENT_TIME_LIMIT", default=330)
SETTLEMENT_SOFT_TIME_LIMIT = SETTLEMENT_TIME_LIMIT * 9 // 10  # rolled back before the kill
SETTLEMENT_MAX_RETRIES = env.int("SETTLEMENT_MAX_RETRIES", default=5)
SETTLEMENT_RETRY_MAX_COUNTDOWN = env.int("SETTLEMENT_RETRY_MAX_COUNTDOWN", default=60)
if _visibility_timeout <= SETTLEMENT_TIME_LIMIT + SETTLEMENT_RETRY_MAX_COUNTDOWN:
    raise ImproperlyConfigured(
        "CELERY_VISIBILITY_TIMEOUT must exceed SETTLEMENT_TIME_LIMIT plus "
        "SETTLEMENT_RETRY_MAX_COUNTDOWN"
    )

# --- Logging ------------------------------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"redact_tokens": {"()": "config.logging.RedactTokens"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["redact_tokens"]},
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"axes": {"level": "WARNING"}},
}

# --- Live encounters: Django Channels ----------------------------------------------------------
# Redis when CHANNEL_REDIS_URL (or REDIS_URL) is set, so that every server process hears every
# change; the in-process layer otherwise (`make run` with SQLite, one server process).
ASGI_APPLICATION = "config.asgi.application"
# Whether daphne serves the pages too (`make run`), or only the live table's WebSockets and
# its health check (compose's `ws`, where gunicorn serves the pages): config/asgi_gate.py.
ASGI_SERVES_PAGES = env.bool("ASGI_SERVES_PAGES", default=True)
CHANNEL_REDIS_URL = env.str("CHANNEL_REDIS_URL", default=env.str("REDIS_URL", default=""))
# The live table's fan-out is one small message per change to an encounter's group: Redis
# publish/subscribe delivers it with one PUBLISH to every process, where the list-based layer
# ("core") pushes to each device's channel and pops each one back (the bench measures both).
CHANNEL_REDIS_LAYER = env.str("CHANNEL_REDIS_LAYER", default="pubsub")
if CHANNEL_REDIS_URL and CHANNEL_REDIS_LAYER == "core":
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [CHANNEL_REDIS_URL], "capacity": 500, "expiry": 30},
        }
    }
elif CHANNEL_REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [CHANNEL_REDIS_URL]},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
