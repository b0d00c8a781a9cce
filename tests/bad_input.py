"""Bad input generated from the served OpenAPI document (issue 20, item 3).

`write_operations(document)` lists every documented POST/PATCH/PUT with its request body schema; `bad_values(...)`
walks that schema and yields, for every property at every nesting level, values it must refuse: each wrong JSON
type, a string past its `maxLength`, numbers past their bounds and past the database's integer columns, naive
and impossible date-times, values outside an enum, arrays past `maxItems`, free-form objects past their documented
size and depth. `raw_bodies(...)` adds the bodies no schema describes (invalid UTF-8, NUL, NaN, nesting past the
parser's limit, a body past the size cap, another media type). `TableFingerprint` proves a refused request wrote
nothing: every table's row count and a digest of its rows, the outbox (`domain_events_domainevent`) included.
"""

import re
from collections.abc import Iterator
from dataclasses import dataclass

from django.db import connection

from apps.api.parsers import MAX_JSON_DEPTH
from tests.operations import inline, set_field

WRITE_METHODS = ("post", "patch", "put")
# A hostile string for every free-text field: SQL that would drop a table if it ever reached SQL as text, and
# markup that would run if ever rendered unescaped.
HOSTILE_TEXT = "'); DROP TABLE contacts_contact; -- <script>alert(1)</script>\" OR 1=1 --"
BIG = 2**63 - 1  # the largest integer a JSON parser hands over (orjson: 64 bits); far past every integer column
MIB = 1024 * 1024


@dataclass(frozen=True)
class WriteOperation:
    method: str  # POST, PATCH, PUT
    path: str  # the document's template, e.g. /v1/platform/classes/{id}
    schema: dict | None  # the resolved JSON request body schema, None when the operation takes no body
    raw_schema: dict | None = None  # as the document writes it

    @property
    def body_schema(self) -> dict | None:
        """Every `$ref` inlined (tests/operations.py reads it)."""
        return inline(self.raw_schema) if self.raw_schema else None

    @property
    def id(self) -> str:
        return f"{self.method} {self.path}"

    @property
    def marketplace(self) -> bool:
        return self.path.startswith("/v1/public/")

    @property
    def surface(self) -> str:
        return "marketplace" if self.marketplace else "oauth" if self.oauth else "platform"

    @property
    def oauth(self) -> bool:
        """The OAuth endpoints answer RFC 6749/7591 bodies `{error, error_description}`."""
        return self.path.startswith("/v1/mcp/oauth/")


@dataclass(frozen=True)
class BadValue:
    path: tuple  # keys and list indexes from the body's root to the bad value
    value: object
    why: str

    @property
    def field(self) -> str:
        """The dotted path the error envelope names (`tickets.0.name`)."""
        return ".".join(str(part) for part in self.path)

    def body(self, base: dict | None = None, operation=None) -> dict:
        """`base` (a valid body of `operation`, see tests/operations.py) with `value` at `path`; without a base,
        the smallest body holding it: `{"tickets": [{"name": 5}]}`."""
        if base is None:
            value = self.value
            for part in reversed(self.path):
                value = [value] if isinstance(part, int) else {part: value}
            return value
        names = [
            f"{part}[]" if isinstance(after, int) else part
            for part, after in zip(self.path, self.path[1:], strict=False)
            if not isinstance(part, int)
        ]
        if isinstance(self.path[-1], int):  # an array's item: the array holding just it
            return set_field(operation, base, ".".join(names[:-1] + [self.path[-2]]), [self.value])
        return set_field(operation, base, ".".join([*names, self.path[-1]]), self.value)


def resolve(document, node: dict) -> dict:
    """`node` with `$ref` followed, a single `allOf` merged (drf-spectacular's `allOf: [{$ref}]` + description), and
    a `oneOf` of a value, a blank string and null read as that value, nullable."""
    node = dict(node)
    while True:
        if "$ref" in node:
            target = document["components"]["schemas"][node.pop("$ref").rsplit("/", 1)[-1]]
            node = {**target, **node}
        elif len(node.get("allOf", ())) == 1:
            (inner,) = node.pop("allOf")
            node = {**inner, **node}
        elif "oneOf" in node:
            branches = [resolve(document, branch) for branch in node.pop("oneOf")]
            values = [b for b in branches if b.get("enum") != [None] and b.get("maxLength") != 0]
            node = {**values[0], **node}
            if len(values) < len(branches) and any(b.get("enum") == [None] for b in branches):
                node["nullable"] = True
        else:
            return node


def write_operations(document) -> list[WriteOperation]:
    operations = []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method not in WRITE_METHODS:
                continue
            content = operation.get("requestBody", {}).get("content", {})
            schema = content.get("application/json", {}).get("schema")
            resolved = resolve(document, schema) if schema else None
            operations.append(WriteOperation(method.upper(), path, resolved, schema))
    return operations


def _wrong_types(kind: str) -> list:
    """A value of every other JSON type."""
    values = {
        "string": [12345, ["x"]],
        "integer": ["5", 1.5, True],
        "number": ["1.5", True],
        "boolean": ["true", 1],
        "array": ["x", {"a": 1}],
        "object": ["x", [1]],
    }
    return values.get(kind, [])


def _bytes_limit(description: str) -> tuple[int, int] | None:
    """(max_bytes, max_depth) stated by a BoundedJSONObjectField's description."""
    match = re.search(r"At most (\d+) bytes as JSON, nested at most (\d+) levels deep", description or "")
    return (int(match[1]), int(match[2])) if match else None


def bad_values(document, schema: dict, path: tuple = (), depth: int = 0) -> Iterator[BadValue]:
    """Every value `schema` must refuse, at `path` and (for objects and arrays) inside it."""
    schema = resolve(document, schema)
    kind = schema.get("type")
    if not path:  # the body itself: raw_bodies() sends the other JSON types
        yield from _inside(document, schema, path, depth)
        return
    if not schema.get("nullable"):
        yield BadValue(path, None, "null")
    for value in _wrong_types(kind):
        yield BadValue(path, value, f"{type(value).__name__} for {kind}")
    if "enum" in schema and kind != "boolean":
        yield BadValue(path, "not-a-member", "outside the enum")
    if kind == "string":
        yield from _bad_strings(schema, path)
    elif kind in ("integer", "number"):
        yield from _bad_numbers(schema, path, kind)
    else:
        yield from _inside(document, schema, path, depth)


def _inside(document, schema, path, depth) -> Iterator[BadValue]:
    """Bad values of an array's items and an object's properties, and of the container's own limits."""
    kind = schema.get("type")
    if kind == "array":
        if "maxItems" in schema:
            item = _a_valid_scalar(resolve(document, schema.get("items", {})))
            yield BadValue(path, [item] * (schema["maxItems"] + 1), f"past maxItems {schema['maxItems']}")
        if depth < 3 and "items" in schema:
            yield from bad_values(document, schema["items"], (*path, 0), depth + 1)
    elif kind == "object":
        if depth < 3:
            for name, sub in schema.get("properties", {}).items():
                yield from bad_values(document, sub, (*path, name), depth + 1)
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and "type" in extra and depth < 3:
            yield from bad_values(document, extra, (*path, "key"), depth + 1)
        limits = _bytes_limit(schema.get("description", ""))
        if limits:
            max_bytes, max_depth = limits
            yield BadValue(path, {"k": "x" * (max_bytes + 1)}, f"past {max_bytes} bytes")
            too_deep = 1
            for _ in range(max_depth + 1):
                too_deep = {"k": too_deep}
            yield BadValue(path, too_deep, f"past {max_depth} levels")


def _bad_strings(schema, path) -> Iterator[BadValue]:
    if "maxLength" in schema:
        yield BadValue(path, "x" * (schema["maxLength"] + 1), f"past maxLength {schema['maxLength']}")
    if schema.get("minLength", 0) > 0:
        yield BadValue(path, "", "empty")
    match schema.get("format"):
        case "date-time":
            yield BadValue(path, "2031-03-04T09:00:00", "naive date-time")
            yield BadValue(path, "2031-02-30T09:00:00Z", "impossible date-time")
            yield BadValue(path, "99999-01-01T00:00:00Z", "five-digit year")
        case "date":
            yield BadValue(path, "2031-02-30", "impossible date")
            yield BadValue(path, "04/03/2031", "not ISO 8601")
        case "email":
            yield BadValue(path, "not-an-email", "not an e-mail")
        case "uri":
            yield BadValue(path, "not a url", "not a URI")
    if "pattern" in schema:
        yield BadValue(path, "\u2603 no match", "does not match the pattern")


def _bad_numbers(schema, path, kind) -> Iterator[BadValue]:
    yield BadValue(path, BIG, "2^63-1")
    yield BadValue(path, -BIG - 1, "-2^63")
    if kind == "number":
        yield BadValue(path, 1e300, "1e300")
    if kind == "number" and schema.get("exclusiveMaximum"):  # a decimal column (max_digits, decimal_places)
        yield BadValue(path, 0.1**12, "more decimal places than stored")
    if "maximum" in schema:
        above = schema["maximum"] if schema.get("exclusiveMaximum") else schema["maximum"] + 1
        yield BadValue(path, above, f"past maximum {schema['maximum']}")
    if "minimum" in schema:
        below = schema["minimum"] if schema.get("exclusiveMinimum") else schema["minimum"] - 1
        yield BadValue(path, below, f"below minimum {schema['minimum']}")


def _a_valid_scalar(schema):
    kind = schema.get("type")
    if "enum" in schema:
        return next((value for value in schema["enum"] if value is not None), None)
    return {"integer": 1, "number": 1, "boolean": True, "string": "x"}.get(kind, {})


def text_fields(document, schema: dict, path: tuple = (), depth: int = 0) -> Iterator[tuple[tuple, int]]:
    """(path, maxLength) of every free-text string in `schema`: no format, enum or pattern."""
    schema = resolve(document, schema)
    if schema.get("type") == "string":
        if not ({"format", "enum", "pattern"} & set(schema)) and path:
            yield path, schema.get("maxLength", 1000)
    elif schema.get("type") == "object" and depth < 3:
        for name, sub in schema.get("properties", {}).items():
            yield from text_fields(document, sub, (*path, name), depth + 1)
    elif schema.get("type") == "array" and depth < 3 and "items" in schema:
        yield from text_fields(document, schema["items"], (*path, 0), depth + 1)


@dataclass(frozen=True)
class RawBody:
    why: str
    content: bytes
    content_type: str
    status: int
    code: str | None  # None: the marketplace's envelope, which carries no code


def raw_bodies(operation: WriteOperation) -> list[RawBody]:
    """Bodies below the schema: the parser, the body cap and the media type answer them, for every operation."""
    field = next(iter((operation.schema or {}).get("properties", {})), "name")
    json = "application/json"
    deep = b"[" * (MAX_JSON_DEPTH + 1) + b"]" * (MAX_JSON_DEPTH + 1)
    padding = b'{"' + field.encode() + b'": "' + b"x" * MIB + b'"}'
    bodies = [
        RawBody("invalid UTF-8", b'{"' + field.encode() + b'": "\xff\xfe\xc3"}', json, 400, "INVALID_JSON"),
        RawBody("lone surrogate", b'{"' + field.encode() + b'": "\\ud800"}', json, 400, "INVALID_JSON"),
        RawBody("NaN", b'{"' + field.encode() + b'": NaN}', json, 400, "INVALID_JSON"),
        RawBody("1e999", b'{"' + field.encode() + b'": 1e999}', json, 400, None),
        RawBody("truncated", b'{"' + field.encode() + b'": ', json, 400, "INVALID_JSON"),
        RawBody(f"nested {MAX_JSON_DEPTH + 1} deep", deep, json, 400, "INVALID_JSON"),
        RawBody("nested 100000 deep", b"[" * 100_000 + b"]" * 100_000, json, 400, "INVALID_JSON"),
        RawBody("NUL", b'{"' + field.encode() + b'": "a\\u0000b"}', json, 400, "VALIDATION_ERROR"),
        RawBody("past the body cap", padding, json, 413, "PAYLOAD_TOO_LARGE"),
        RawBody("form-encoded", b"name=x", "application/x-www-form-urlencoded", 415, "UNSUPPORTED_MEDIA_TYPE"),
        RawBody("text/plain", b'{"name": "x"}', "text/plain", 415, "UNSUPPORTED_MEDIA_TYPE"),
    ]
    if operation.schema is not None:  # an operation without a body ignores its fields, as any unknown field
        past_64_bits = b'{"' + field.encode() + b'": ' + b"9" * 30 + b"}"
        bodies.append(RawBody("integer past 64 bits", past_64_bits, json, 400, "VALIDATION_ERROR"))
        for body in (b"[]", b'"x"', b"5", b"false"):  # `null` is no body (an optional body may be absent)
            bodies.append(RawBody(f"top-level {body.decode()}", body, json, 400, "VALIDATION_ERROR"))
    if operation.oauth:  # RFC 6749 bodies: another media type is a 400 `invalid_request`; a 64 KiB cap
        bodies = [
            RawBody(body.why, body.content, body.content_type, 413 if len(body.content) > 64 * 1024 else 400, None)
            for body in bodies
        ]
    if operation.marketplace:  # its own envelope: {error, details}, no code; 413 and 415 are the platform's
        bodies = [
            RawBody(body.why, body.content, body.content_type, body.status, None)
            for body in bodies
            if body.status == 400
        ]
    return bodies


def error_fields(body: dict) -> set[str]:
    """The dotted paths an error body names: `details.fields` keys (Platform) or `details.issues[].path`
    (marketplace), with `[0]` written as `.0`."""
    details = body.get("details") or {}
    names = set(details.get("fields", {}))
    names |= {
        ".".join(map(str, issue["path"])) if isinstance(issue["path"], list) else str(issue["path"])
        for issue in details.get("issues", [])
    }
    if "field" in details:
        names.add(details["field"])
    return {re.sub(r"\[(\d+)\]", r".\1", name) for name in names}


def names_field(body: dict, field: str) -> bool:
    """The error names `field`, a field holding it, or a field inside it."""
    return any(
        name == field or field.startswith(name + ".") or name.startswith(field + ".") for name in error_fields(body)
    )


class TableFingerprint:
    """Row count and a digest of the rows of every table of the project: a request that changed nothing leaves them
    equal. `changed()` first reads the transaction's write counters per table (`pg_stat_xact_user_tables`) and
    digests the tables only when a row was inserted, updated or deleted since its last call, so a refused request
    costs one cheap query. Reference tables too large to digest on every write (the gazetteer loaded by a
    migration, over `LARGE` rows) count as changed when their write counter moves. API keys are left out
    (authentication stamps `last_used_at`)."""

    SKIPPED = {"organizations_apikey", "oauth_grant", "django_session", "django_migrations"}
    LARGE = 10_000
    WRITES = "SELECT relname, n_tup_ins + n_tup_upd + n_tup_del FROM pg_stat_xact_user_tables"

    def __init__(self):
        with connection.cursor() as cursor:
            cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename")
            self.tables = [name for (name,) in cursor.fetchall() if name not in self.SKIPPED]
            # Counted, not the planner's estimate: a test database just created has not been analyzed yet.
            cursor.execute(" UNION ALL ".join(f"SELECT '{name}', count(*) FROM \"{name}\"" for name in self.tables))
            self.large = {name for name, count in cursor.fetchall() if count > self.LARGE}
        self.sql = " UNION ALL ".join(
            f"SELECT '{name}', count(*), md5(coalesce(string_agg(md5(t::text), '' ORDER BY md5(t::text)), ''))"
            f' FROM "{name}" t'
            for name in self.tables
            if name not in self.large
        )
        self.writes, self.digests = self._writes(), self.take()

    def _writes(self) -> dict[str, int]:
        with connection.cursor() as cursor:
            cursor.execute(self.WRITES)
            return {name: count for name, count in cursor.fetchall() if name in self.tables}

    def take(self) -> dict[str, tuple[int, str]]:
        with connection.cursor() as cursor:
            cursor.execute(self.sql)
            return {name: (count, digest) for name, count, digest in cursor.fetchall()}

    def changed(self) -> list[str]:
        """The tables whose rows differ from the last call (or from the creation of this fingerprint)."""
        writes = self._writes()
        if writes == self.writes:
            return []
        moved = {name for name in self.large if writes.get(name, 0) != self.writes.get(name, 0)}
        digests = self.take()
        changed = sorted(moved | {name for name in digests if digests[name] != self.digests[name]})
        self.writes, self.digests = writes, digests
        return changed


def bad_query_values(document, parameter: dict) -> list[str]:
    """Values a documented query parameter must refuse (already URL-encoded): by its type, format or enum; for the
    untyped date filters (`startDate`, a date or a date-time) and `ordering`, by name."""
    schema = resolve(document, parameter.get("schema", {}))
    name = parameter["name"]
    kind = schema.get("type")
    if "enum" in schema:
        return ["not-a-member"]
    if name == "limit":  # any larger value is clamped (API.md §1)
        return ["abc", "1.5", "0", "-1"]
    if kind == "integer":
        return ["abc", "1.5", str(10**30), "%00"]
    if kind == "number":
        return ["abc", "1e999", "nan"]
    if kind == "boolean":
        return ["yes", "1"]
    if schema.get("format") == "date" or (kind == "string" and name.endswith("Date")):
        return ["2031-02-30", "31/12/2031", "2031-03-04T09:00:00", "99999-01-01"]
    if name == "ordering":
        return ["no-such-field", "-"]
    return []
