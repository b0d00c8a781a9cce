"""Contract fuzzing: schemathesis drives every operation of the served OpenAPI document over the demo data.

`seed_demo` fills the test database and mints a full-access key; schemathesis loads `/v1/openapi.json` from the
WSGI application (the served document, nothing rebuilt) and, for every operation it lists, generates requests
from the document (valid ones and ones that break it: wrong types, missing fields, values out of range, odd
strings) with a fixed seed and a fixed number of examples. Each request goes to the application in-process
through its WSGI interface, in a savepoint rolled back afterwards, so every request meets the same demo data
(a DELETE or a cancel takes nothing away from the next one) and a run is reproducible. Path parameters are
either generated or the id of a demo object (the first item of the collection before them), and id fields of
bodies (`clubId`, `contactIds`) get demo ids in part of the valid requests, so writes get past the "unknown id"
400 and return real resources to check.

Checks, unloosened: no 5xx; the status code is one the operation documents; the response's content type is the
documented one; the body matches the documented schema for that status. The set of operations fuzzed must be the
set the document lists, so an endpoint added later is fuzzed too.

Runtime is bounded by the number of examples (`FUZZ_EXAMPLES` per operation, default below), not by a clock, so
a slow machine runs the same requests. Run it alone with `pytest tests/test_contract_fuzz.py`;
`FUZZ_EXAMPLES=200 FUZZ_SEED=7` explores further, `FUZZ_OPERATIONS=oauth` fuzzes only the operations whose label
(`POST /v1/mcp/oauth/token`) matches. Why in-process WSGI and
not a live server: docs/decisions/openapi.md ("Contract fuzzing").
"""

import io
import os
import re
from collections import defaultdict
from contextlib import contextmanager
from functools import partial

import hypothesis
import pytest
import schemathesis
from django.core.management import call_command
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, Phase, given
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from werkzeug.test import Client

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "8"))
SEED = int(os.environ.get("FUZZ_SEED", "20"))
# Only the operations whose label (`GET /v1/platform/me`) this regular expression finds, to chase one failure.
ONLY = re.compile(os.environ.get("FUZZ_OPERATIONS", ""))
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
OPERATIONS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
PARAMETER = re.compile(r"\{(\w+)\}")
# A collection whose path is not the prefix of its items' path.
COLLECTION_OF = {"/v1/public/network/clubs": "/v1/public/search/clubs"}


@contextmanager
def one_connection_for_every_request():
    """The demo data lives in this test's transaction, so a request must not close the connection at its end
    (Django's test client disconnects the same receivers)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


class _Undo(Exception):
    pass


@contextmanager
def undone():
    """Run the block in a savepoint and roll it back, whatever it wrote."""
    try:
        with transaction.atomic():
            yield
            raise _Undo
    except _Undo:
        pass


@pytest.fixture
def demo_key(db, settings):
    """The demo data and its full-access key; rate limits scaled out of reach (no 429 may hide an answer)."""
    settings.RATE_LIMIT_MULTIPLIER = 100_000
    output = io.StringIO()
    call_command("seed_demo", "--allow-production", stdout=output)
    return re.search(r"Demo API key: (\S+)", output.getvalue()).group(1)


def documented_operations(document) -> set[str]:
    return {
        f"{method.upper()} {path}"
        for path, item in document["paths"].items()
        for method in item
        if method in OPERATIONS
    }


def demo_path_parameters(template: str, get) -> dict | None:
    """A demo object for each path parameter: the first item of the collection before it (`{id}`, or the field
    the parameter names: `{slug}`, `{version}`, `{htmlId}`); None when a collection is empty or not listable."""
    values = {}
    for match in PARAMETER.finditer(template):
        collection = template[: match.start()].rstrip("/").format(**values)
        response = get(COLLECTION_OF.get(collection, collection))
        body = response.json if response.status_code == 200 else None
        items = body.get("data") if isinstance(body, dict) else body
        if not items:
            return None
        name = match.group(1)
        values[name] = items[0].get(name, items[0].get("id"))
    return values


def demo_ids(operations, get) -> dict:
    """{id field name: a demo id} for body fields such as `clubId`, from the first item of each top-level list
    (`/v1/platform/area-types` gives `areaTypeId`)."""
    ids = {}
    for operation in operations:
        if operation.method.upper() != "GET" or "{" in operation.path:
            continue
        response = get(operation.path)
        body = response.json if response.status_code == 200 else None
        if not isinstance(body, dict) or not body.get("data") or "id" not in body["data"][0]:
            continue
        noun = operation.path.rsplit("/", 1)[-1]
        singular = noun[:-3] + "y" if noun.endswith("ies") else re.sub(r"(ss|s)es$|s$", r"\1", noun)
        ids[re.sub(r"-(\w)", lambda m: m.group(1).upper(), singular) + "Id"] = body["data"][0]["id"]
    return ids


def with_demo_ids(ids: dict, case):
    """The case with each id field of its body that names a demo collection set to a demo id of it."""
    if isinstance(case.body, dict):
        case.body = _demo_id_fields(ids, case.body)
    return case


def _demo_id_fields(ids: dict, node: dict) -> dict:
    out = {}
    for key, value in node.items():
        if key in ids and isinstance(value, int) and not isinstance(value, bool):
            value = ids[key]
        elif key.endswith("Ids") and key[:-1] in ids and isinstance(value, list):
            value = [ids[key[:-1]]]
        elif isinstance(value, dict):
            value = _demo_id_fields(ids, value)
        out[key] = value
    return out


def strategy_for(operation, ids: dict, path_parameters: dict | None):
    """Valid requests (with and without demo ids in the body) and invalid ones, on a demo object when the path
    names one, plus invalid requests on generated path values."""
    on_demo = {"path_parameters": path_parameters} if path_parameters else {}
    return st.one_of(
        operation.as_strategy(GenerationMode.POSITIVE, **on_demo).map(partial(with_demo_ids, ids)),
        operation.as_strategy(GenerationMode.POSITIVE, **on_demo),
        operation.as_strategy(GenerationMode.NEGATIVE, **on_demo),
        *([operation.as_strategy(GenerationMode.NEGATIVE)] if path_parameters else []),
    )


def fuzz(operation, strategy, headers) -> list:
    """Run the operation's examples; the failures found, each as (case, response, FailureGroup)."""
    failures = []

    @hypothesis.seed(SEED)
    @hypothesis.settings(
        max_examples=EXAMPLES,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
        verbosity=hypothesis.Verbosity.quiet,
    )
    @given(case=strategy)
    def run(case):
        with undone():
            response = case.call(headers=headers)
        try:
            case.validate_response(response, checks=CHECKS)
        except BaseExceptionGroup as failure:  # schemathesis' FailureGroup: every check that failed
            failures.append((case, response, failure))

    run()
    return failures


def describe(label: str, failures: list) -> str:
    case, response, failure = failures[0]
    curl = case.as_curl_command(headers={"Authorization": "Bearer <demo key>"})
    checks = "; ".join(f"{type(f).__name__}: {str(f).splitlines()[0]}" for f in failure.exceptions)
    return (
        f"{label}: {len(failures)} failing request(s), the first: {response.status_code} "
        f"{response.content[:300]!r}\n  {checks}\n  {curl[:600]}"
    )


def test_every_operation_keeps_its_documented_contract(demo_key):
    application = get_wsgi_application()
    headers = {"Authorization": f"Bearer {demo_key}"}
    failures = defaultdict(list)
    with one_connection_for_every_request():
        schema = schemathesis.openapi.from_wsgi("/v1/openapi.json", application)
        get = partial(Client(application).get, headers=headers)
        document = get("/v1/openapi.json").json
        operations = [result.ok() for result in schema.get_all_operations()]
        fuzzed = [operation for operation in operations if ONLY.search(operation.label)]
        ids = demo_ids(operations, get)
        for operation in fuzzed:
            strategy = strategy_for(operation, ids, demo_path_parameters(operation.path, get))
            failures[operation.label] += fuzz(operation, strategy, headers)

    documented = {label for label in documented_operations(document) if ONLY.search(label)}
    assert set(failures) == documented, "schemathesis did not fuzz every documented operation"
    found = [describe(label, found) for label, found in failures.items() if found]
    assert not found, f"{len(found)} operations break their documented contract:\n" + "\n".join(found)
