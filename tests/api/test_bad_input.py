"""Bad input generated from the served OpenAPI document's request bodies (issue 20, item 3; tests/bad_input.py).

For every documented write operation: every bad value of every property (wrong JSON types, null, strings past
their maximum, numbers past their bounds and past the database's columns, naive and impossible date-times, values
outside enums, arrays and objects past their limits) and every kind of raw body below the schema (invalid UTF-8,
NUL, NaN, deep nesting, a body past the cap, another media type; each through every parser, see `raw_body_plan`)
is a 4xx in the error envelope naming the field, never a 500, and writes nothing: every table's rows (the outbox
included) are the same before and after. Hostile text (SQL, markup) in every free-text field is never a 500. On
every list, bad `limit`/`offset` values are a 400 on that parameter and a huge `limit` is clamped to 200.

One organization per module; each operation is one test (its path objects made once by its contract case's
`setup`), rolled back at its end.
"""

import itertools
import re
from http import HTTPStatus
from types import SimpleNamespace

import orjson
import pytest
from django.apps import apps as django_apps
from django.db import transaction
from django.urls import resolve
from rest_framework.test import APIClient

from apps.organizations.models import ApiKey, Organization
from tests.bad_input import (
    HOSTILE_TEXT,
    BadValue,
    TableFingerprint,
    bad_query_values,
    bad_values,
    names_field,
    raw_bodies,
    text_fields,
    write_operations,
)
from tests.harness import platform_routes
from tests.matrices.world import seed
from tests.operations import contract_case, document, example_body

DOCUMENT = document()  # as /v1/openapi.json serves it
OPERATIONS = write_operations(DOCUMENT)


def case_for(method: str, path: str):
    """The contract case (tests/<app>/cases.py) of an operation: its `setup` makes the objects its path names."""
    return contract_case(SimpleNamespace(method=method, path=path))


@pytest.fixture(scope="module")
def organization(django_db_setup, django_db_blocker):
    """The module's one organization with the demo data (tests/matrices/world.py), in a transaction rolled back
    when the module ends."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield seed("hostile-input-gym", "Hostile Input Gym")[0]
        transaction.set_rollback(True)


@pytest.fixture(scope="module")
def ids(organization, django_db_blocker):
    """ids(field name) -> the id of a row of the module's organization that a body field of that name names
    (`clubId`, `instructorIds`, `typeId` of an instructor), for valid example bodies (tests/operations.py)."""
    models = {}
    for model in django_apps.get_models():
        if any(field.name == "organization" for field in model._meta.concrete_fields):
            models.setdefault(model._meta.model_name, model)
    with django_db_blocker.unblock():
        first = {
            name: model.objects.filter(organization=organization).order_by("pk").values_list("pk", flat=True).first()
            for name, model in models.items()
        }

    def id_for(field_name):
        stem = re.sub(r"Ids?$", "", field_name).lower()
        return first.get(ID_STEMS.get(stem, stem)) or 1

    return id_for


# Body id fields whose name is not their model's.
ID_STEMS = {"type": "instructortype", "stage": "pipelinestage", "pipelinestage": "pipelinestage"}


# What a valid body needs beyond its required fields' plain examples (an address that is a URL, a type that exists).
BASE_FIELDS = {
    "POST /v1/platform/channel-bookings": lambda ids: {
        "areaId": ids("areaId"),
        "startTime": "2031-03-04T10:00:00+01:00",
        "endTime": "2031-03-04T11:00:00+01:00",
        "contact": {"firstName": "Eva"},
    },
    "POST /v1/platform/checkins": lambda ids: {"membershipId": ids("membershipId"), "clubId": ids("clubId")},
    "POST /v1/platform/instructors": lambda ids: {"contact": {"firstName": "Ines"}},
    "POST /v1/platform/media": lambda ids: {"url": "https://cdn.example/photo.png"},
    "POST /v1/platform/messages": lambda ids: {"subject": "Hello", "contactIds": [ids("contactId")]},
    "POST /v1/platform/templates": lambda ids: {"subject": "Hello"},
    "POST /v1/platform/webhooks": lambda ids: {"url": "https://93.184.215.14/hooks", "events": ["*"]},
    "POST /v1/platform/website/pages/{pageId}/sections": lambda ids: {"type": "hero", "config": {"title": "Hi"}},
    "POST /v1/public/network/search/offers": lambda ids: {"lat": 40.42, "lng": -3.70},
}


def valid_base(client, operation, url, ids) -> dict | None:
    """The operation's example body (every required field filled, tests/operations.py) if the API accepts it, tried
    in a savepoint rolled back at once; None when it does not (the bad values are then sent alone)."""
    if operation.raw_schema is None:
        return None
    body = {**example_body(operation, ids), **BASE_FIELDS.get(operation.id, lambda ids: {})(ids)}
    if not body:
        return None
    with transaction.atomic():
        accepted = request(client, operation, url, orjson.dumps(body)).status_code < 300
        transaction.set_rollback(True)
    return body if accepted else None


@pytest.fixture(scope="module")
def token(organization, django_db_blocker):
    with django_db_blocker.unblock():
        return ApiKey.issue(organization=organization, name="hostile", scopes=["*"])[1]


@pytest.fixture
def api(db, token, settings):
    settings.RATE_LIMIT_MULTIPLIER = 1000  # hundreds of requests per test, all in one rate-limit window
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    client.get("/v1/platform/me")  # stamps the key's last_used_at before anything is compared
    return client


def envelope_problem(surface: str, response, field: str | None = None, status=400, code=None) -> str | None:
    """What is wrong with `response` as the refusal of a bad request, or None."""
    if response.status_code != status:
        return f"status {response.status_code} (wanted {status}): {response.content[:200]!r}"
    try:
        body = response.json()
    except ValueError:
        return f"not JSON: {response.content[:200]!r}"
    marketplace = surface == "marketplace"
    if surface == "oauth":
        if set(body) - {"error", "error_description"} or not isinstance(body.get("error"), str):
            return f"not the RFC 6749 error body: {body}"
        return None  # names no field
    if marketplace:
        if set(body) - {"error", "details"} or body.get("error") != "Invalid request":
            return f"not the marketplace envelope: {body}"
    else:
        if set(body) - {"error", "message", "code", "details"} or not {"error", "message", "code"} <= set(body):
            return f"not the envelope: {body}"
        if body["error"] != HTTPStatus(status).phrase:
            return f"error {body['error']!r} is not the reason phrase"
        if code and body["code"] != code:
            return f"code {body['code']} (wanted {code}): {body}"
    if field is not None and (marketplace or body["code"] == "VALIDATION_ERROR"):
        if not names_field(body, field):
            return f"does not name {field}: {body}"
    return None


def request(client, operation, url, content: bytes, content_type="application/json", idempotent=False):
    """`idempotent`: a Platform API POST carries a fresh `Idempotency-Key`, which a refused request must release
    (API.md §1.1): the table fingerprint sees `api_idempotencyrecord`. (Claiming and releasing a key writes rows,
    so the fingerprint digests every table after such a request: only some requests carry one.)"""
    extra = {}
    if idempotent and operation.method == "POST" and operation.surface == "platform":
        extra["HTTP_IDEMPOTENCY_KEY"] = f"bad-input-{next(IDEMPOTENCY_KEYS)}"
    return client.generic(operation.method, url, content, content_type=content_type, **extra)


IDEMPOTENCY_KEYS = itertools.count()


PLATFORM_OPERATIONS = [op for op in OPERATIONS if op.surface == "platform"]
# The raw body that reaches an operation's own fields (its serializer), whatever the parser did.
FIELD_LEVEL_RAW_BODIES = {"integer past 64 bits"}


def raw_body_plan() -> dict[str, set[str]]:
    """Operation id -> the raw-body kinds (`RawBody.why`) it is sent. Below the schema a Platform API body meets
    one code path whatever the operation (`PlatformViewMixin.initial`: the body cap, the media type check and the
    JSON parser, before the view's own code), so each of those kinds is sent to the first operation it applies to
    and to every operation in rotation (one kind each, in turn), not every kind to every operation: every kind
    still meets several views, and every operation the shared path. What reaches the operation's own fields is
    sent to each; the OAuth endpoints (their own body reader) and the marketplace's POST get every kind."""
    plan, sent = {}, set()
    for i, operation in enumerate(PLATFORM_OPERATIONS):
        kinds = [raw.why for raw in raw_bodies(operation)]
        shared = [kind for kind in kinds if kind not in FIELD_LEVEL_RAW_BODIES]
        chosen = {kind for kind in shared if kind not in sent} | {shared[i % len(shared)]}
        plan[operation.id] = chosen | (set(kinds) & FIELD_LEVEL_RAW_BODIES)
        sent |= chosen
    for operation in OPERATIONS:
        plan.setdefault(operation.id, {raw.why for raw in raw_bodies(operation)})
    return plan


RAW_BODY_PLAN = raw_body_plan()


def test_every_write_operation_is_generated_and_has_a_path_setup():
    """The operations generated here are exactly the router's writes (and the marketplace's one POST): a new
    endpoint is covered the day it is routed, and its contract case supplies the objects its path names."""
    documented = {(resolve(re.sub(r"\{[^}]+\}", "1", op.path)).func, op.method) for op in PLATFORM_OPERATIONS}
    routed = {(callback, method) for callback, method, _ in platform_routes() if method in ("POST", "PATCH", "PUT")}
    assert documented == routed
    assert [op.id for op in OPERATIONS if op.marketplace] == ["POST /v1/public/network/search/offers"]
    assert {op.id for op in OPERATIONS if op.oauth} == {
        f"POST /v1/mcp/oauth/{name}" for name in ("register", "token", "revoke")
    }
    assert [op.id for op in PLATFORM_OPERATIONS if case_for(op.method, op.path) is None] == []


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: op.id)
def test_bad_input_is_refused_in_the_envelope_and_writes_nothing(operation, organization, api, ids):
    client = api if operation.surface == "platform" else APIClient()
    case = case_for(operation.method, operation.path)
    url = case.url(organization) if case else operation.path
    base = valid_base(client, operation, url, ids)
    fingerprint = TableFingerprint()
    problems = []

    def check(label, response, **expected):
        problem = envelope_problem(operation.surface, response, **expected)
        if problem:
            problems.append(f"{label}: {problem}")
        if changed := fingerprint.changed():
            problems.append(f"{label}: wrote to {changed}")

    if operation.schema is not None:
        for i, bad in enumerate(bad_values(DOCUMENT, operation.schema)):
            response = request(client, operation, url, orjson.dumps(bad.body(base, operation)), idempotent=i < 3)
            check(f"{bad.field}={bad.why}", response, field=bad.field)
    for raw in (raw for raw in raw_bodies(operation) if raw.why in RAW_BODY_PLAN[operation.id]):
        response = request(client, operation, url, raw.content, raw.content_type, idempotent=True)
        check(raw.why, response, status=raw.status, code=raw.code)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    "operation", [op for op in OPERATIONS if op.schema and list(text_fields(DOCUMENT, op.schema))], ids=lambda op: op.id
)
def test_hostile_text_in_every_text_field_is_data(operation, organization, api, ids):
    """SQL and markup in a text field (of a valid body where there is one) are only text: never a 500; refused in
    the envelope, writing nothing; or accepted and answered back as sent where the response shows the field."""
    client = api if operation.surface == "platform" else APIClient()
    case = case_for(operation.method, operation.path)
    url = case.url(organization) if case else operation.path
    base = valid_base(client, operation, url, ids)
    fingerprint = TableFingerprint()
    problems = []
    for path, max_length in text_fields(DOCUMENT, operation.schema):
        text = HOSTILE_TEXT[:max_length]
        body = BadValue(path, text, "hostile text").body(base, operation)
        fingerprint.changed()  # what an accepted value before this one wrote is not this one's
        response = request(client, operation, url, orjson.dumps(body))
        field = ".".join(map(str, path))
        if response.status_code >= 500:
            problems.append(f"{field}: {response.status_code} {response.content[:200]!r}")
        elif response.status_code >= 400:
            if problem := envelope_problem(operation.surface, response, status=response.status_code):
                problems.append(f"{field}: {problem}")
            if changed := fingerprint.changed():
                problems.append(f"{field}: refused but wrote to {changed}")
        elif len(path) == 1 and isinstance(shown := response.json().get(path[0]), str) and shown != text:
            problems.append(f"{field}: stored {shown!r}, sent {text!r}")
    assert not problems, "\n".join(problems)


LIST_OPERATIONS = [
    (path, item["get"])
    for path, item in DOCUMENT["paths"].items()
    if "get" in item and any(p.get("name") == "limit" for p in item["get"].get("parameters", []))
]


@pytest.mark.parametrize(
    ("path", "parameters"),
    [(path, get["parameters"]) for path, get in LIST_OPERATIONS],
    ids=[path for path, _ in LIST_OPERATIONS],
)
def test_bad_pagination_is_a_400_on_its_parameter(path, parameters, organization, api):
    marketplace = path.startswith("/v1/public/")
    client = APIClient() if marketplace else api
    case = case_for("GET", path)
    url = case.url(organization) if case else path
    sep = "&" if "?" in url else "?"
    problems = []
    for name, value in [
        ("limit", "abc"),
        ("limit", "-1"),
        ("limit", "0"),
        ("limit", "1.5"),
        ("offset", "abc"),
        ("offset", "-1"),
        ("offset", "1.5"),
        ("offset", str(10**30)),
    ]:
        if name == "offset" and not any(p["name"] == "offset" for p in parameters):
            continue  # a cursor feed: `offset` is an unknown parameter, ignored
        response = client.get(f"{url}{sep}{name}={value}")
        if problem := envelope_problem("marketplace" if marketplace else "platform", response, field=name):
            problems.append(f"{name}={value}: {problem}")
    response = client.get(f"{url}{sep}limit={10**30}")
    if response.status_code != 200 or response.json().get("limit", 200) != 200:
        problems.append(f"limit=10**30 is not clamped to 200: {response.status_code} {response.content[:200]!r}")
    assert not problems, "\n".join(problems)


# Query parameters that pick the operation's object, as a path id does: an integer naming none is a 404, also one
# beyond 64 bits (docs/decisions/foundation-api.md #3).
SELECTING_PARAMETERS = {"websiteId"}
READ_OPERATIONS = [
    (path, item["get"])
    for path, item in DOCUMENT["paths"].items()
    if "get" in item
    and any(bad_query_values(DOCUMENT, p) for p in item["get"].get("parameters", []) if p["in"] == "query")
]


@pytest.mark.parametrize(("path", "get"), READ_OPERATIONS, ids=[path for path, _ in READ_OPERATIONS])
def test_a_bad_value_of_every_typed_query_parameter_is_a_400_on_it(path, get, organization, api):
    """A known parameter with a bad value gets 400 on that parameter (API.md §1), for every documented typed
    parameter of every read: integers, numbers, booleans, enums, dates, `ordering`."""
    marketplace = path.startswith("/v1/public/")
    client = APIClient() if marketplace else api
    case = case_for("GET", path)
    url = case.url(organization) if case else path
    sep = "&" if "?" in url else "?"
    problems = []
    for parameter in get["parameters"]:
        if parameter["in"] != "query":
            continue
        for value in bad_query_values(DOCUMENT, parameter):
            if marketplace and value == "%00":
                continue  # the marketplace answers a NUL anywhere in its query with its 404 (test_nul_guard.py)
            response = client.get(f"{url}{sep}{parameter['name']}={value}")
            status = 400
            if parameter["name"] in SELECTING_PARAMETERS and value == str(10**30):
                status = 404
            if problem := envelope_problem(
                "marketplace" if marketplace else "platform", response, field=parameter["name"], status=status
            ):
                problems.append(f"{parameter['name']}={value}: {problem}")
    assert not problems, "\n".join(problems)


def test_the_fingerprint_sees_the_outbox_a_changed_row_and_not_a_rolled_back_one(organization, api):
    fingerprint = TableFingerprint()
    assert {"domain_events_domainevent", "api_idempotencyrecord"} <= set(fingerprint.tables)
    assert api.post("/v1/platform/contacts", {"firstName": "Ana"}, format="json").status_code == 201
    assert {"contacts_contact", "domain_events_domainevent"} <= set(fingerprint.changed())
    Organization.objects.filter(pk=organization.pk).update(name="Renamed")
    assert fingerprint.changed() == ["organizations_organization"]
    with transaction.atomic():
        Organization.objects.filter(pk=organization.pk).update(name="Undone")
        transaction.set_rollback(True)
    assert fingerprint.changed() == []
