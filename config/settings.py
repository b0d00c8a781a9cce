"""Settings, read from the environment (django-environ). See docs/configuration.md."""

import warnings
from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent
env = environ.Env()
if (BASE_DIR / ".env").exists():
    environ.Env.read_env(BASE_DIR / ".env")

# Development defaults: with DEBUG off, every entry point refuses to start on them (config/production.py).
SECRET_KEY = env("SECRET_KEY", default="dev-only-insecure-secret-key-change-me-in-production")
DEBUG = env.bool("DEBUG", default=False)
API_KEY_PEPPER = env("API_KEY_PEPPER", default="dev-only-api-key-pepper")

BASE_URL = env("BASE_URL", default="http://localhost:8000").rstrip("/")
MCP_URL = env("MCP_URL", default=f"{BASE_URL}/mcp").rstrip("/")
AUTH_URL = env("AUTH_URL", default=BASE_URL).rstrip("/")
MARKETPLACE_URL = env("MARKETPLACE_URL", default=f"{BASE_URL}/marketplace").rstrip("/")
SITE_HOST = env("SITE_HOST", default="sites.localhost")
# Scheme of the published websites' addresses (`https` in production; `http` for a local demo).
SITE_SCHEME = env("SITE_SCHEME", default="https")
# How long a rendered page of a published website is reused (its live plans and classes may lag that long).
WEBSITE_PAGE_CACHE_SECONDS = env.int("WEBSITE_PAGE_CACHE_SECONDS", default=30)
# Webhooks (docs/webhooks.md). UNSAFE in production: true lets subscriptions use http:// and private, loopback
# and link-local addresses (development and tests only).
WEBHOOK_ALLOW_PRIVATE_NETWORKS = env.bool("WEBHOOK_ALLOW_PRIVATE_NETWORKS", default=False)
WEBHOOK_TIMEOUT_SECONDS = env.float("WEBHOOK_TIMEOUT_SECONDS", default=10.0)
WEBHOOK_LEASE_SECONDS = env.int("WEBHOOK_LEASE_SECONDS", default=60)
WEBHOOK_MAX_CONCURRENCY_PER_SUBSCRIPTION = env.int("WEBHOOK_MAX_CONCURRENCY_PER_SUBSCRIPTION", default=4)
WEBHOOK_COUNTDOWN_MAX_SECONDS = env.int("WEBHOOK_COUNTDOWN_MAX_SECONDS", default=300)
WEBHOOK_RETENTION_DAYS = 30
# Who answers a custom domain's DNS TXT challenge (apps/website/domains.py): `resolver(name) -> list[str]`.
WEBSITE_DOMAIN_TXT_RESOLVER = env("WEBSITE_DOMAIN_TXT_RESOLVER", default="apps.website.domains.dns_txt_records")
# How long an offer search is reused for identical searches in the same minute; any write to bookings, blocks,
# classes, courts, clubs, pricing rules or organizations invalidates it at once (apps/marketplace/freshness.py).
MARKETPLACE_OFFERS_CACHE_SECONDS = env.int("MARKETPLACE_OFFERS_CACHE_SECONDS", default=30)
# A list total of at least LIST_TOTAL_CACHE_ROWS is reused up to that many seconds by the process that counted it,
# only while no write has committed since (apps/api/pagination.py); 0 counts every page.
LIST_TOTAL_CACHE_ROWS = env.int("LIST_TOTAL_CACHE_ROWS", default=10_000)
LIST_TOTAL_CACHE_SECONDS = env.int("LIST_TOTAL_CACHE_SECONDS", default=60)
# The same for a rendered gym page (per query) and a club's classes.ics (apps/marketplace/pages/views.py).
MARKETPLACE_PAGE_CACHE_SECONDS = env.int("MARKETPLACE_PAGE_CACHE_SECONDS", default=30)
# django-ratelimit (the public surfaces' per-address limits, apps/api/public_limits.py): a cache that cannot be
# read lets the request through, like the credential buckets.
RATELIMIT_FAIL_OPEN = True


def _url_host(url: str) -> str:
    from urllib.parse import urlsplit

    return urlsplit(url).hostname or ""


ALLOWED_HOSTS = env.list(
    "ALLOWED_HOSTS",
    default=sorted(
        {"localhost", "127.0.0.1", "[::1]", "testserver", f".{SITE_HOST.split(':')[0]}"}
        | {_url_host(url) for url in (BASE_URL, AUTH_URL, MCP_URL) if _url_host(url)}
    ),
)
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "apps.api",
    "apps.organizations",
    "apps.clubs",
    "apps.occupancy",
    "apps.contacts",
    "apps.instructors",
    "apps.classes",
    "apps.billing",
    "apps.products",
    "apps.transactions",
    "apps.invoices",
    "apps.bookings",
    "apps.events",
    "apps.policies",
    "apps.memberships",
    "apps.marketplace",
    "apps.mcp",
    "apps.notifications",
    "apps.domain_events",
    "apps.pricing",
    "apps.analytics",
    "apps.content",
    "apps.messaging",
    "apps.forms",
    "apps.website",
    "oauth2_provider",
    "apps.oauth",
    "apps.webhooks",
    "apps.observability",
]

MIDDLEWARE = [
    "apps.api.middleware.RequestIdMiddleware",
    "apps.api.middleware.NulCharacterMiddleware",
    "apps.website.public.middleware.WebsiteHostMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
APPEND_SLASH = False

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = env.bool("CONN_HEALTH_CHECKS", default=True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].setdefault(
        "options", f"-c statement_timeout={env.int('DB_STATEMENT_TIMEOUT_MS', default=30000)}"
    )
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# A streaming read replica of DATABASE_URL: lists, reports and marketplace search read from it, everything else
# (every write, any read after a write in the same request, credentials, Celery, the admin) uses the primary
# (apps/kernel/db_routing.py, docs/deployment.md). Unset, there is one database and no router.
DATABASE_REPLICA_URL = env("DATABASE_REPLICA_URL", default="")
if DATABASE_REPLICA_URL:
    DATABASES["replica"] = env.db("DATABASE_REPLICA_URL")
    DATABASES["replica"]["CONN_MAX_AGE"] = DATABASES["default"]["CONN_MAX_AGE"]
    DATABASES["replica"]["CONN_HEALTH_CHECKS"] = DATABASES["default"]["CONN_HEALTH_CHECKS"]
    DATABASES["replica"]["OPTIONS"] = dict(DATABASES["default"].get("OPTIONS", {}))
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}  # tests see the primary's test database through it
    DATABASE_ROUTERS = ["apps.kernel.db_routing.PrimaryReplicaRouter"]

REDIS_URL = env("REDIS_URL", default="")
# A Redis that stops answering (hung, or a network dropping packets) costs a request at most this long per command,
# then the limits fail open (docs/decisions/faults.md); redis-py would wait 5 s, kombu (the broker) forever.
REDIS_SOCKET_TIMEOUT_SECONDS = env.float("REDIS_SOCKET_TIMEOUT_SECONDS", default=0.5)
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "socket_timeout": REDIS_SOCKET_TIMEOUT_SECONDS,
                "socket_connect_timeout": REDIS_SOCKET_TIMEOUT_SECONDS,
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
# A task whose worker dies under it (SIGKILL, OOM, a lost machine) runs again, so every task is idempotent
# (docs/decisions/faults.md): a killed pool process's task is requeued at once (reject_on_worker_lost), a killed
# worker's unacknowledged messages go back to the queue after the visibility timeout, which must exceed the longest
# countdown a task is queued with (`WEBHOOK_COUNTDOWN_MAX_SECONDS`: longer webhook retries wait for the sweep).
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT_SECONDS", default=3600),
    "socket_timeout": 5,  # above kombu's 1-second BRPOP; bounds a publish to a hung broker
    "socket_connect_timeout": 5,
}
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE = {
    "extend-open-ended-series": {
        "task": "apps.classes.tasks.extend_open_series",
        "schedule": env.int("SERIES_EXTEND_INTERVAL_SECONDS", default=3600),
    },
    "purge-idempotency-records": {"task": "apps.api.tasks.purge_idempotency_records", "schedule": 86400},
    # Expiry, scheduled resumes and cancellations, renewals: idempotent, so an hourly run catches each day's
    # change soon after midnight on every club's clock.
    "membership-lifecycle": {
        "task": "apps.memberships.tasks.run_membership_lifecycle",
        "schedule": env.int("MEMBERSHIP_LIFECYCLE_INTERVAL_SECONDS", default=3600),
    },
    "purge-notification-deliveries": {"task": "apps.notifications.tasks.purge_delivery_records", "schedule": 86400},
    "resume-stalled-message-sends": {"task": "apps.messaging.tasks.resume_stalled_sends", "schedule": 600},
    # Webhooks: relay events a crashed process left behind, then queue due retries and lost or leased-out
    # deliveries; warn and disable failing subscriptions; trim the delivery log and the outbox (30 days).
    "webhooks-relay-missed": {"task": "apps.webhooks.relay.relay_missed", "schedule": 10},
    "webhooks-sweep": {"task": "apps.webhooks.tasks.sweep", "schedule": env.int("WEBHOOK_SWEEP_SECONDS", default=10)},
    "webhooks-check-failing": {"task": "apps.webhooks.tasks.check_failing_subscriptions", "schedule": 900},
    "webhooks-trim": {"task": "apps.webhooks.tasks.trim", "schedule": 3600},
}
# Webhook work has its own queue: run a worker with `-Q webhooks` (or `-Q celery,webhooks`), see docs/webhooks.md.
WEBHOOK_QUEUE = env("WEBHOOK_QUEUE", default="webhooks")
CELERY_TASK_ROUTES = {"apps.webhooks.*": {"queue": WEBHOOK_QUEUE}}
# Work units one membership lifecycle run may spend (one per membership visited, one per period billed), shared by
# the organizations in turns; the rest is left for the next run (apps/memberships/services.py, run_lifecycle).
MEMBERSHIP_LIFECYCLE_BUDGET = env.int("MEMBERSHIP_LIFECYCLE_BUDGET", default=2000)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Failed admin sign-ins: past either limit within the window, that address or account is refused until it ends.
ADMIN_LOGIN_MAX_FAILURES_PER_ADDRESS = env.int("ADMIN_LOGIN_MAX_FAILURES_PER_ADDRESS", default=10)
ADMIN_LOGIN_MAX_FAILURES_PER_ACCOUNT = env.int("ADMIN_LOGIN_MAX_FAILURES_PER_ACCOUNT", default=5)
ADMIN_LOGIN_FAILURE_WINDOW_SECONDS = env.int("ADMIN_LOGIN_FAILURE_WINDOW_SECONDS", default=15 * 60)

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# The admin's and the docs page's assets are served by the app itself (WhiteNoise), straight from the installed
# apps when `collectstatic` has not been run, so a plain `gunicorn` on a fresh clone serves a styled admin.
WHITENOISE_USE_FINDERS = True
warnings.filterwarnings("ignore", message="No directory at: ")  # WhiteNoise, before collectstatic

EMAIL_BACKEND = env("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="no-reply@localhost")
EMAIL_HOST = env("EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("EMAIL_PORT", default=25)
EMAIL_HOST_USER = env("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
MESSAGING_BACKEND = env("MESSAGING_BACKEND", default="apps.notifications.channels.LoggingMessagingBackend")
SMS_BACKEND = env("SMS_BACKEND", default="apps.notifications.channels.LoggingSmsBackend")

# HTTPS. The proxy header is trusted only when configured. Secure cookies default on for a production configuration
# (DEBUG off) served over TLS, i.e. behind a TLS proxy or with an https BASE_URL, so the admin's session and CSRF
# cookies never travel in clear; `make run` on http://127.0.0.1 keeps plain cookies. HSTS is opt-in because it
# binds browsers to HTTPS for the whole host (and with INCLUDE_SUBDOMAINS, every subdomain) for its max-age.
BEHIND_TLS_PROXY = env.bool("BEHIND_TLS_PROXY", default=False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if BEHIND_TLS_PROXY else None
SERVED_OVER_TLS = BEHIND_TLS_PROXY or BASE_URL.startswith("https://")
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG and SERVED_OVER_TLS)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG and SERVED_OVER_TLS)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=False)
# The public pages (club sites, form pages, marketplace pages) run no script: the policy forbids all of it.
# apps/api/page_security.py applies it with the rest of the security headers.
PUBLIC_PAGE_CSP = env(
    "PUBLIC_PAGE_CSP",
    default="default-src 'none'; script-src 'none'; style-src 'unsafe-inline'; img-src 'self' https: data:; "
    "media-src 'self' https:; font-src 'self' https:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
)

# Platform API behaviour
RATE_LIMIT_MULTIPLIER = env.float("RATE_LIMIT_MULTIPLIER", default=1.0)
# How long a rendered list page may be kept at most (apps/api/pagecache.py: it is served only while no write has
# committed since and its time-dependent values hold; the bound covers writes made outside the application). 0: off.
API_PAGE_CACHE_SECONDS = env.int("API_PAGE_CACHE_SECONDS", default=300)
# How many proxies of this deployment append to X-Forwarded-For; 0 = the client address is REMOTE_ADDR.
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
IDEMPOTENCY_TTL_HOURS = 24
API_MAX_BODY_BYTES = env.int("API_MAX_BODY_BYTES", default=1024 * 1024)  # larger Platform API bodies: 413
# Django's own cap on `request.body` must not be the smaller one (it would surface as a 500, not a 413).
DATA_UPLOAD_MAX_MEMORY_SIZE = max(2_621_440, API_MAX_BODY_BYTES)
SERIES_WINDOW_DAYS = env.int("SERIES_WINDOW_DAYS", default=90)
SERIES_MAX_OCCURRENCES = 520

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["apps.api.authentication.ApiKeyAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["apps.api.permissions.ScopePermission"],
    "DEFAULT_RENDERER_CLASSES": ["apps.api.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["apps.api.parsers.JSONParser"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "apps.api.negotiation.JSONOnlyNegotiation",
    "DEFAULT_PAGINATION_CLASS": "apps.api.pagination.PagePagination",
    "DEFAULT_FILTER_BACKENDS": ["apps.api.filtersets.PlatformFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "apps.api.schema.PlatformAutoSchema",
    "EXCEPTION_HANDLER": "apps.api.exceptions.exception_handler",
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_THROTTLE_CLASSES": [],
    "DATETIME_FORMAT": "iso-8601",
    "COERCE_DECIMAL_TO_STRING": False,
    "URL_FORMAT_OVERRIDE": None,
    "DEFAULT_VERSIONING_CLASS": None,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Organization Platform API and Public Marketplace API",
    # The introduction shown first on /v1/docs: authentication, scopes, errors, limits, pagination, idempotency,
    # clocks, webhooks and MCP, with this deployment's addresses in its examples.
    "DESCRIPTION": (BASE_DIR / "apps" / "api" / "introduction.md")
    .read_text()
    .replace("{base_url}", BASE_URL)
    .replace("{auth_url}", AUTH_URL)
    .replace("{mcp_url}", MCP_URL),
    "VERSION": "1.0.0",
    "OAS_VERSION": "3.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    "SERVE_AUTHENTICATION": [],
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "AUTHENTICATION_WHITELIST": [],
    "PREPROCESSING_HOOKS": ["apps.api.schema.only_public_paths"],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "apps.oauth.openapi.add_oauth_operations",  # plain Django views, documented by the oauth app
        "apps.api.schema.add_security_schemes",
    ],
    # Every enum of the API is named after its TextChoices (apps/*/choices.py), whichever fields share it.
    "ENUM_NAME_OVERRIDES": {
        "AdjustmentTypeEnum": "apps.pricing.choices.AdjustmentType",
        "WebhookDeliveryStatusEnum": "apps.webhooks.choices.DeliveryStatus",
        "WebhookDisabledReasonEnum": "apps.webhooks.choices.DisabledReason",
        "AudienceEnum": "apps.pricing.choices.Audience",
        "AvailabilityStatusEnum": "apps.classes.choices.AvailabilityStatus",
        "BillingFrequencyEnum": "apps.billing.choices.BillingFrequency",
        "BookingPolicyAppliesToEnum": "apps.policies.choices.PolicyAppliesTo",
        "ButtonStyleEnum": "apps.website.choices.ButtonStyle",
        "BookingStatusEnum": "apps.bookings.choices.BookingStatus",
        "BookingTypeEnum": "apps.bookings.choices.BookingType",
        "BookingWriteStatusEnum": "apps.bookings.choices.WRITABLE_BOOKING_STATUSES",
        "ChannelBookingCreateTypeEnum": "apps.bookings.choices.CHANNEL_BOOKING_TYPES",
        "CheckInMethodEnum": "apps.bookings.choices.CheckInMethod",
        "MembershipCancelEffectiveEnum": "apps.memberships.choices.CancelEffective",
        "MembershipPaymentStatusEnum": "apps.memberships.choices.MembershipPaymentStatus",
        "MembershipStatusEnum": "apps.memberships.choices.MembershipStatus",
        "ClassRecurrenceStatusEnum": "apps.classes.choices.SeriesStatus",
        "ClassStatusEnum": "apps.classes.choices.ClassStatus",
        "ContactStatusEnum": "apps.contacts.choices.ContactStatus",
        "ContentItemStatusEnum": "apps.content.choices.ContentItemStatus",
        "ContentItemTypeEnum": "apps.content.choices.ContentItemType",
        "CredentialTypeEnum": "apps.organizations.choices.CredentialType",
        "CustomPeriodUnitEnum": "apps.billing.choices.CustomPeriodUnit",
        "DayOfWeekEnum": "apps.clubs.choices.DayOfWeek",
        "DocumentRequirementEnum": "apps.policies.choices.DocumentRequirement",
        "DocumentRuleAppliesToEnum": "apps.policies.choices.DocumentAppliesTo",
        "DocumentTypeEnum": "apps.policies.choices.DocumentType",
        "DomainCheckEnum": "apps.website.choices.DomainCheck",
        "EndsTypeEnum": "apps.classes.choices.EndsType",
        "EventStatusEnum": "apps.events.choices.EventStatus",
        "EntranceMethodEnum": "apps.bookings.choices.EntranceMethod",
        "FrequencyEnum": "apps.classes.choices.Frequency",
        "InvoiceStatusEnum": "apps.invoices.choices.InvoiceStatus",
        "MediaTypeEnum": "apps.content.choices.MediaType",
        "MessageChannelEnum": "apps.messaging.choices.MessageChannel",
        "MessageStatusEnum": "apps.messaging.choices.MessageStatus",
        "NotIndexableReasonEnum": "apps.website.choices.NotIndexableReason",
        "OfferDurationEnum": "apps.marketplace.choices.OfferDuration",
        "PaymentStatusEnum": "apps.bookings.choices.PaymentStatus",
        "PublisherTypeEnum": "apps.website.choices.PublisherType",
        "QuestionTypeEnum": "apps.forms.choices.QuestionType",
        "RateTypeEnum": "apps.instructors.choices.RateType",
        "SectionPlacementEnum": "apps.website.choices.SectionPlacement",
        "SessionUnitEnum": "apps.billing.choices.SessionUnit",
        "TimeStatusEnum": "apps.classes.choices.TimeStatus",
        "TransactionPaymentStatusEnum": "apps.transactions.choices.TransactionPaymentStatus",
        "TransactionSourceTypeEnum": "apps.transactions.choices.TransactionSourceType",
        "TransactionTypeEnum": "apps.transactions.choices.TransactionType",
        "ValidForScopeEnum": "apps.billing.choices.ValidForScope",
        "VisibilityEnum": "apps.classes.choices.Visibility",
        "WaitlistEntryStatusEnum": "apps.bookings.choices.WaitlistStatus",
    },
    # /v1/docs serves Swagger UI's assets from the app (no CDN), so the page works on a closed network.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# OAuth 2.1 (apps/oauth, on django-oauth-toolkit; docs/oauth.md). Lifetimes: code 10 min, access 1 h, refresh 30 days
# rotating on every use; tokens are stored as SHA-256 checksums only; PKCE S256 only; `iss` on every redirect.
OAUTH2_PROVIDER_APPLICATION_MODEL = "oauth.Client"
OAUTH2_PROVIDER_GRANT_MODEL = "oauth.AuthorizationCode"
OAUTH2_PROVIDER_ACCESS_TOKEN_MODEL = "oauth.AccessToken"
OAUTH2_PROVIDER_REFRESH_TOKEN_MODEL = "oauth.RefreshToken"
OAUTH2_PROVIDER_ID_TOKEN_MODEL = "oauth.IDToken"
OAUTH_ACCESS_TOKEN_SECONDS = 3600
OAUTH_REFRESH_TOKEN_SECONDS = 30 * 86400
# Client ID Metadata Documents are fetched from the public internet only. A development setup that serves one from
# its own machine or network may allow private, loopback and link-local addresses (never in production).
OAUTH_CIMD_ALLOW_PRIVATE_ADDRESSES = env.bool("OAUTH_CIMD_ALLOW_PRIVATE_ADDRESSES", default=False)
# A CA bundle the metadata-document fetcher trusts besides the system's (a development or test certificate).
OAUTH_CIMD_EXTRA_CA_FILE = env("OAUTH_CIMD_EXTRA_CA_FILE", default="")
OAUTH2_PROVIDER = {
    "OAUTH2_SERVER_CLASS": "oauthlib.oauth2.WebApplicationServer",  # authorization code + refresh only
    "OAUTH2_VALIDATOR_CLASS": "apps.oauth.validator.PlatformOAuth2Validator",
    "OAUTH2_BACKEND_CLASS": "apps.oauth.endpoints.PlatformOAuthLibCore",
    "SCOPES_BACKEND_CLASS": "apps.oauth.scopes.RegistryScopes",
    "ACCESS_TOKEN_GENERATOR": "apps.oauth.tokens.access_token",
    "REFRESH_TOKEN_GENERATOR": "apps.oauth.tokens.refresh_token",
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 600,
    "ACCESS_TOKEN_EXPIRE_SECONDS": OAUTH_ACCESS_TOKEN_SECONDS,
    # django-oauth-toolkit counts a refresh token's life from its access token's expiry.
    "REFRESH_TOKEN_EXPIRE_SECONDS": OAUTH_REFRESH_TOKEN_SECONDS - OAUTH_ACCESS_TOKEN_SECONDS,
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_GRACE_PERIOD_SECONDS": 0,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "PKCE_REQUIRED": True,
    "ALLOWED_REDIRECT_URI_SCHEMES": ["https", "http"],
    "ALLOW_LOCALHOST_LOOPBACK": True,
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    "COMPLIANT_BCP_RFC9700_REFRESH_TOKEN": True,
    "COMPLIANT_BCP_RFC9700_PKCE_REQUIRED": True,
    "REQUEST_APPROVAL_PROMPT": "force",
}

# Operability (docs/configuration.md, "Observability").
# /metrics answers these networks (CIDRs, matched against the client address) or a bearer METRICS_TOKEN; else 404.
METRICS_ALLOWED_NETWORKS = env.list("METRICS_ALLOWED_NETWORKS", default=["127.0.0.1/32", "::1/128"])
METRICS_TOKEN = env("METRICS_TOKEN", default="")
# "json": one JSON object per line (time, level, logger, message, request_id, exception); anything else: plain.
LOG_FORMAT = env("LOG_FORMAT", default="plain")
SENTRY_DSN = env("SENTRY_DSN", default="")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "apps.api.logs.RequestIdFilter"}},
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
        "json": {"()": "apps.api.logs.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json" if LOG_FORMAT == "json" else "plain",
            "filters": ["request_id"],
        }
    },
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
    "loggers": {"django.request": {"level": "ERROR"}, "django.server": {"level": "WARNING"}},
}

if SENTRY_DSN:
    # Error reporting only when configured: no personal data (no cookies, headers, user ids, bodies), no tracing
    # unless asked for. The Django, Celery, Redis and logging integrations are enabled by the SDK itself.
    import sentry_sdk

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        send_default_pii=False,
        environment=env("SENTRY_ENVIRONMENT", default="production"),
        release=env("SENTRY_RELEASE", default=None),
        traces_sample_rate=env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0),
    )
