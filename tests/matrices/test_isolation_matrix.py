"""The isolation matrix, generated from the served OpenAPI document: for every operation, another organization's
object answers exactly like one that does not exist (the same status and the same body, the echoed id aside),
wherever its id is sent: in the path, in any id field of the body (`clubId`, `players[].contactId`,
`instructorIds`) and in any id parameter of the query (`?clubId=`, `?websiteId=`). Each request goes through an API
key and the operation's MCP tool, all of org A, and a read's path ids also through an OAuth access token: the
credential decides only the organization (one `Credential` for both kinds), and every method of a resource finds
its path object through the same organization-scoped `get_object` as its read. The other organization is org B of
the seeded world (tests/matrices/world.py).

A path value that is a key inside its parent rather than an id (a section's `htmlId` in a page, a release's
`version`, a channel's name) is skipped where B's value is also one of A's: the parent in the path is A's already,
and the parent is tested as another row of the matrix.
"""

from urllib.parse import urlencode

import orjson
import pytest

from apps.billing.models import Plan, PlanCategory, RevenueAccount
from apps.bookings.models import Booking
from apps.classes.models import ClassOccurrence, ClassSeries, ClassType
from apps.clubs.models import Area, AreaType, Club
from apps.contacts.models import Contact, ContactSource, PipelineStage
from apps.content.models import ContentItem
from apps.events.models import Event, EventTicket
from apps.instructors.models import Instructor, InstructorType, PayRatePolicy
from apps.memberships.models import Membership
from apps.messaging.models import MessageTemplate
from apps.products.models import ProductCategory
from apps.website.models import Website
from tests.mcp.tool_arguments import tool_arguments
from tests.operations import (
    contract_case,
    example_body,
    example_query,
    fill_path,
    path_values,
    platform_operations,
    set_field,
)

from .conftest import call_tool, rest

MISSING_ID = 1_999_999_999
MISSING_TEXT = "no-such-thing"
STAFF_USER = "staff user"  # `authorId`: the user id of a staff member of the organization

# What an id names, by its name without `Id`/`Ids`. A new id field must be added here (the coverage test fails).
ID_MODELS = {
    "area": Area,
    "areaType": AreaType,
    "author": STAFF_USER,
    "booking": Booking,
    "category": ProductCategory,  # products' `categoryId`
    "class": ClassOccurrence,
    "classType": ClassType,
    "club": Club,
    "contact": Contact,
    "contentItem": ContentItem,
    "event": Event,
    "instructor": Instructor,
    "membership": Membership,
    "payRatePolicy": PayRatePolicy,
    "pipelineStage": PipelineStage,
    "plan": Plan,
    "planCategory": PlanCategory,
    "recurrence": ClassSeries,
    "revenueAccount": RevenueAccount,
    "source": ContactSource,
    "template": MessageTemplate,
    "ticket": EventTicket,
    "type": InstructorType,  # instructors' `typeId`
    "website": Website,
}

OPERATIONS = platform_operations()
PATH_ROWS = [(op, name) for op in OPERATIONS for name in op.path_params]
BODY_ROWS = [(op, field) for op in OPERATIONS for field in op.id_body_fields()]
QUERY_ROWS = [(op, name) for op in OPERATIONS for name in op.id_query_params()]


def stem(field: str) -> str:
    name = field.rsplit(".", 1)[-1]
    return name.removesuffix("Ids").removesuffix("Id")


def row_id(world, organization, field: str) -> int:
    model = ID_MODELS[stem(field)]
    if model == STAFF_USER:
        return world.credentials.users[organization.slug].id
    found = model.objects.filter(organization=organization).order_by("id").values_list("id", flat=True).first()
    assert found is not None, f"the world has no {model.__name__} in {organization.slug}"
    return found


def id_value(field: str, value: int):
    return [value] if field.endswith("Ids") else value


def scrubbed(value, echoed):
    """`value` (a parsed body) with the ids it echoes replaced by `<id>`."""
    if isinstance(value, dict):
        return {key: scrubbed(item, echoed) for key, item in value.items()}
    if isinstance(value, list):
        return [scrubbed(item, echoed) for item in value]
    if isinstance(value, str):
        for echo in echoed:
            value = value.replace(str(echo), "<id>")
        return value
    return "<id>" if value in echoed and not isinstance(value, bool) else value


def normalized(response, echoed) -> tuple[int, object]:
    """(status, body) with the id the body may echo replaced."""
    return response.status_code, (scrubbed(orjson.loads(response.content), echoed) if response.content else None)


def tool_result(token, operation, path, query, body) -> tuple[int, dict]:
    result = call_tool(token, operation.operation_id, tool_arguments(operation.operation_id, path, query, body))
    content = result["structuredContent"]
    return (content.get("status", 200) if result["isError"] else 200), content


class Asker:
    """Sends one request for org A through every channel: an API key, an OAuth token and the MCP tool."""

    def __init__(self, world, operation):
        self.world, self.operation = world, operation

    def answers(self, path: dict, query: dict, body, echoed, oauth=True) -> dict:
        """By channel: (status, body without the echoed ids). `oauth=False` leaves the OAuth token out where it
        adds nothing (the credential decides only the organization, checked through it on the reads' path rows)."""
        url = fill_path(self.operation, path) + (("?" + urlencode(query, doseq=True)) if query else "")
        credentials = self.world.credentials
        status, content = tool_result(credentials.key(), self.operation, path, query, body)
        out = {
            "api key": normalized(rest(credentials.key(), self.operation.method, url, body), echoed),
            "mcp": (status, scrubbed(content, echoed)),
        }
        if oauth:
            out["oauth"] = normalized(rest(credentials.oauth(), self.operation.method, url, body), echoed)
        return out


def own_ids(world):
    return lambda name: row_id(world, world.a, name)


def base_request(world, operation):
    """Path values of objects made in org A (the operation's contract case), its required query and a body."""
    case = contract_case(operation)
    path = path_values(operation, case, world.a) if operation.path_params else {}
    query = example_query(operation, own_ids(world))
    body = case.body if case.body and operation.body_schema else example_body(operation, own_ids(world))
    return case, path, query, body


def assert_alike(foreign: dict, missing: dict):
    for channel in foreign:
        assert foreign[channel] == missing[channel], (channel, foreign[channel], missing[channel])


# --- coverage ---------------------------------------------------------------------------------------------------


def test_every_id_the_document_names_is_in_the_matrix():
    unknown = sorted({field for _, field in BODY_ROWS + QUERY_ROWS if stem(field) not in ID_MODELS})
    assert not unknown, f"id fields without an ID_MODELS entry: {unknown}"
    without_case = [op.id for op in OPERATIONS if op.path_params and contract_case(op) is None]
    assert not without_case, f"operations whose path objects no contract case makes: {without_case}"
    assert len(PATH_ROWS) > 100 and len(BODY_ROWS) > 80 and len(QUERY_ROWS) > 60  # the document was read


# --- ids in the path --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("operation", "param"), PATH_ROWS, ids=[f"{op.id} {name}" for op, name in PATH_ROWS])
def test_path_id_of_another_organization(operation, param, world, db):
    case, own, query, body = base_request(world, operation)
    other = path_values(operation, case, world.b)[param]
    if other == own[param]:
        pytest.skip(f"{param} {other!r} names an object of both organizations")  # a key inside its parent
    missing = MISSING_ID if operation.path_params[param].get("type") == "integer" else MISSING_TEXT
    asker = Asker(world, operation)
    oauth = operation.method == "GET"
    foreign_answers = asker.answers({**own, param: other}, query, body, [other], oauth=oauth)
    missing_answers = asker.answers({**own, param: missing}, query, body, [missing], oauth=oauth)
    assert missing_answers["api key"][0] == 404, missing_answers
    assert_alike(foreign_answers, missing_answers)


# --- ids in the body --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("operation", "field"), BODY_ROWS, ids=[f"{op.id} {field}" for op, field in BODY_ROWS])
def test_body_id_of_another_organization(operation, field, world, db):
    _, own, query, body = base_request(world, operation)
    body = example_body(operation, own_ids(world)) if body is None else body
    other = row_id(world, world.b, field)
    asker = Asker(world, operation)
    foreign_body = set_field(operation, body, field, id_value(field, other), own_ids(world))
    missing_body = set_field(operation, body, field, id_value(field, MISSING_ID), own_ids(world))
    foreign_answers = asker.answers(own, query, foreign_body, [other], oauth=False)
    missing_answers = asker.answers(own, query, missing_body, [MISSING_ID], oauth=False)
    status, content = missing_answers["api key"]
    assert 400 <= status < 500, (status, content)
    assert_alike(foreign_answers, missing_answers)


# --- ids in the query -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("operation", "param"), QUERY_ROWS, ids=[f"{op.id} {name}" for op, name in QUERY_ROWS])
def test_query_id_of_another_organization(operation, param, world, db):
    _, own, query, body = base_request(world, operation)
    other = row_id(world, world.b, param)
    schema = operation.query_params[param]
    value = (lambda v: [v]) if schema.get("type") == "array" else (lambda v: v)
    asker = Asker(world, operation)
    foreign_answers = asker.answers(own, {**query, param: value(other)}, body, [other], oauth=False)
    missing_answers = asker.answers(own, {**query, param: value(MISSING_ID)}, body, [MISSING_ID], oauth=False)
    assert_alike(foreign_answers, missing_answers)
