"""No answer to org A carries a row of org B. The two organizations of the seeded world (tests/matrices/world.py)
hold the same demo data; B's rows alone have ids from `B_ID_FLOOR` and `B_MARKER` in their names, titles,
descriptions and notes. Every GET operation of the document (lists, items, reports, the event feed), every link
those answers carry to another surface (invoice PDFs, calendar feeds, website pages, marketplace pages), A's
public pages (its club site, forms, the marketplace pages and `.ics` of its listed clubs, which share their slugs
with B's unlisted ones) and the webhooks delivered to A are read as A and searched for B's markers.
"""

import datetime as dt
import io
import re
from urllib.parse import urlencode, urlsplit

import orjson
import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from pypdf import PdfReader
from rest_framework.test import APIClient

from apps.clubs.models import Club
from apps.website.models import Website
from tests.mcp.tool_arguments import tool_arguments
from tests.operations import example_query, fill_path, platform_operations
from tests.webhooks.conftest import private_ok, received, receiver, subscribe  # noqa: F401 (fixtures)

from .conftest import call_tool, rest
from .test_isolation_matrix import own_ids
from .world import B_ID_FLOOR, B_MARKER

OPERATIONS = platform_operations()
GETS = [op for op in OPERATIONS if op.method == "GET"]
B_ID = re.compile(r"(?<![\d.])5\d{8}(?![\d.])")  # B's ids: [B_ID_FLOOR, 2 * B_ID_FLOOR)
ITEMS_PER_PARENT = 2
LINKS_PER_ANSWER = 4


def leaks_in_json(value, where="") -> list[str]:
    if isinstance(value, dict):
        return [leak for key, item in value.items() for leak in leaks_in_json(item, f"{where}.{key}")]
    if isinstance(value, list):
        return [leak for i, item in enumerate(value) for leak in leaks_in_json(item, f"{where}[{i}]")]
    if isinstance(value, bool):
        return []
    if isinstance(value, int) and B_ID_FLOOR <= value < 2 * B_ID_FLOOR:
        return [f"{where} = {value}"]
    if isinstance(value, str) and (B_MARKER in value or "bravo-gym" in value or B_ID.search(value)):
        return [f"{where} = {value[:200]!r}"]
    return []


def leaks_in_text(text: str) -> list[str]:
    found = [m.group() for m in B_ID.finditer(text)]
    for marker in (B_MARKER, "bravo-gym"):
        index = text.find(marker)
        if index >= 0:
            found.append(text[max(0, index - 80) : index + 40])
    return found


def body_text(response) -> str:
    content_type = response.get("Content-Type", "")
    if content_type.startswith("application/pdf"):
        return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(response.content)).pages)
    return response.content.decode()


def assert_clean(where, response):
    text = body_text(response)
    if response.get("Content-Type", "").startswith("application/json"):
        leaks = leaks_in_json(orjson.loads(text))
    else:
        leaks = leaks_in_text(text)
    assert not leaks, f"{where} shows org B's rows: {leaks[:5]}"


def service_links(value) -> list[str]:
    """Absolute links in an answer that point at this service (its API host, club sites, the marketplace)."""
    found = []
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return [link for item in value for link in service_links(item)]
    if isinstance(value, str) and value.startswith("http"):
        host = urlsplit(value).hostname or ""
        ours = {urlsplit(settings.BASE_URL).hostname, urlsplit(settings.MARKETPLACE_URL).hostname}
        if host in ours or host.endswith("." + settings.SITE_HOST.split(":")[0]):
            found.append(value)
    return found


def open_link(url):
    parts = urlsplit(url)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    return Client().get(path, HTTP_HOST=parts.netloc, secure=parts.scheme == "https")


def follow_links(answer_json, where):
    """Open (as anyone: the links need no credential) the service links an answer carries, and check each."""
    opened = 0
    for url in dict.fromkeys(service_links(answer_json)):
        if opened == LINKS_PER_ANSWER:
            break
        response = open_link(url)
        if response.status_code == 200:
            assert_clean(f"{where} -> {url}", response)
            opened += 1


def get_as_a(world, url):
    return rest(world.credentials.key(), "GET", url)


def query_of(operation, world) -> dict:
    query = example_query(operation, own_ids(world))
    if "limit" in operation.query_params:
        query["limit"] = 200
    return query


def with_query(operation, url, world):
    query = query_of(operation, world)
    return url + ("?" + urlencode(query) if query else "")


def parent_list(operation):
    """The list operation whose items name this operation's (single) path value: `/classes` for
    `/classes/{id}/bookings`, `/website/releases` for `/website/releases/{version}`."""
    parent = operation.path.split("/{", 1)[0]
    return next((op for op in GETS if op.path == parent and not op.path_params), None)


def path_value_sets(world, operation) -> list[dict]:
    if not operation.path_params:
        return [{}]
    if operation.operation_id == "channel_bookings_get":
        page = get_as_a(world, "/v1/platform/bookings?limit=200").json()["data"]
        channel = [b for b in page if b.get("externalSource") and b.get("externalId")]
        return [{"externalSource": b["externalSource"], "externalId": b["externalId"]} for b in channel][:1]
    (param,) = operation.path_params
    parent = parent_list(operation)
    assert parent is not None, f"{operation.id}: no list names its {param}"
    items = get_as_a(world, with_query(parent, parent.path, world)).json()["data"][:ITEMS_PER_PARENT]
    return [{param: item.get(param, item.get("id"))} for item in items]


# Operations whose rows the demo data of org A does not hold: nothing of A to read.
NOTHING_TO_READ = {"channel_bookings_get"}


@pytest.mark.parametrize("operation", GETS, ids=lambda op: op.id)
def test_answers_to_a_show_nothing_of_b(operation, world, db):
    """Through an API key, an OAuth token and the MCP tool; and the links each answer carries."""
    value_sets = path_value_sets(world, operation)
    if operation.operation_id not in NOTHING_TO_READ:
        assert value_sets, f"{operation.id}: the world holds nothing of org A to read"
    for values in value_sets:
        url = with_query(operation, fill_path(operation, values), world)
        for token in (world.credentials.key(), world.credentials.oauth()):
            response = rest(token, "GET", url)
            assert response.status_code == 200, (url, response.content[:300])
            assert_clean(url, response)
        arguments = tool_arguments(operation.operation_id, values, query_of(operation, world), None)
        result = call_tool(world.credentials.key(), operation.operation_id, arguments)
        assert not result["isError"], result
        assert not leaks_in_json(result["structuredContent"]), f"MCP {operation.operation_id}"
        follow_links(response.json(), url)


def test_invoice_pdfs_and_instructor_feeds_show_nothing_of_b(world, db):
    """Read as anyone through the signed links the API hands out: A's invoice PDFs (their text) and A's
    instructors' calendar feeds."""
    invoices = get_as_a(world, "/v1/platform/invoices?limit=200").json()["data"]
    assert invoices
    for invoice in invoices[:3]:
        pdf = open_link(invoice["pdfUrl"])
        assert pdf.status_code == 200 and pdf["Content-Type"].startswith("application/pdf")
        assert invoice["number"] in body_text(pdf)  # the text was read
        assert_clean(invoice["pdfUrl"], pdf)
    instructors = get_as_a(world, "/v1/platform/instructors").json()["data"]
    assert instructors
    for instructor in instructors:
        feed = get_as_a(world, f"/v1/platform/instructors/{instructor['id']}/calendar-feed").json()
        calendar = open_link(feed["url"])
        assert calendar.status_code == 200 and calendar.content.startswith(b"BEGIN:VCALENDAR"), feed
        assert_clean(feed["url"], calendar)


# --- public pages -------------------------------------------------------------------------------------------------


def listed_slugs(world) -> list[str]:
    return list(Club.objects.filter(organization=world.a, marketplace_listed=True).values_list("slug", flat=True))


def test_marketplace_pages_and_feeds_of_a_club_show_nothing_of_b(world, db):
    """B's clubs carry the same slugs as A's listed ones, unlisted: every public answer for a slug is A's."""
    slugs = listed_slugs(world)
    assert slugs
    client = Client()
    search = client.get("/v1/public/search/clubs?limit=100")
    assert search.status_code == 200, search.content
    assert_clean("club search", search)
    day = (timezone.localdate() + dt.timedelta(days=7)).isoformat()
    offers = client.post("/v1/public/network/search/offers", {"location": "Madrid", "date": day}, "application/json")
    assert offers.status_code == 200, offers.content[:300]
    assert offers.json()["data"], "A's courts are offered (else the check proves nothing)"
    assert_clean("offer search", offers)
    for slug in slugs:
        for url in (
            f"/v1/public/network/clubs/{slug}",
            f"/marketplace/clubs/{slug}",
            f"/marketplace/clubs/{slug}/classes.ics",
        ):
            response = client.get(url)
            assert response.status_code == 200, (url, response.content[:300])
            assert_clean(url, response)


def test_club_site_and_form_pages_show_nothing_of_b(world, db):
    website = Website.objects.get(organization=world.a, is_default=True)
    pages = get_as_a(world, "/v1/platform/website/pages").json()["data"]
    forms = get_as_a(world, "/v1/platform/forms").json()["data"]
    links = [website.site_url + path for path in ("/", "/es/", "/sitemap.xml")]
    links += [page["url"] for page in pages] + [form["url"] for form in forms]
    for url in links:
        response = open_link(url)
        assert response.status_code == 200, (url, response.status_code)
        assert_clean(url, response)


# --- webhooks -----------------------------------------------------------------------------------------------------


def test_webhooks_delivered_to_a_show_nothing_of_b(world, db, receiver, django_capture_on_commit_callbacks):  # noqa: F811
    """The same writes in both organizations (one person, the same e-mail): A's receiver gets A's events only,
    B's gets B's (so the check can fail), and A's event feed lists A's."""
    clients = {}
    for name, token in (("a", world.credentials.key()), ("b", world.credentials.b_key)):
        clients[name] = APIClient()
        clients[name].credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        subscribe(clients[name], receiver.url_for(f"/hook-{name}"))
    receiver.expect_request("/hook-a", method="POST").respond_with_data("ok")
    receiver.expect_request("/hook-b", method="POST").respond_with_data("ok")
    for name, last_name in (("b", f"Lopez {B_MARKER}"), ("a", "Lopez")):
        with django_capture_on_commit_callbacks(execute=True):
            created = clients[name].post(
                "/v1/platform/contacts",
                {"firstName": "Ana", "lastName": last_name, "email": "ana.twin@example.com"},
                format="json",
            )
            assert created.status_code == 201, created.content
            changed = clients[name].patch(
                f"/v1/platform/contacts/{created.json()['id']}", {"notes": f"{last_name} called"}, format="json"
            )
            assert changed.status_code == 200, changed.content
    to_a = [orjson.loads(request.get_data()) for request in received(receiver, "/hook-a")]
    to_b = [orjson.loads(request.get_data()) for request in received(receiver, "/hook-b")]
    assert {body["type"] for body in to_a} >= {"contact.created", "contact.updated"}
    assert leaks_in_json(to_b), "B's payloads carry B's markers (else this test could not fail)"
    for body in to_a:
        assert not leaks_in_json(body), body
    feed = rest(world.credentials.key(), "GET", "/v1/platform/webhook-events?limit=200")
    assert feed.status_code == 200 and feed.json()["data"], feed.content[:300]
    assert_clean("the event feed", feed)
