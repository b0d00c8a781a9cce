"""Document rules through the HTTP API: fields and bounds, id lists per appliesTo, filters, delete, tenancy."""

import pytest

from apps.billing.models import Plan
from apps.classes.models import ClassType
from apps.clubs.models import Club
from apps.content.models import ContentItem
from apps.policies.models import DocumentRule
from tests.events.factories import make_event

URL = "/v1/platform/document-rules"
REQUIRED = {"name": "Waiver", "documentType": "waiver", "requirement": "sign", "appliesTo": "all_contacts"}


def item(pk):
    return f"{URL}/{pk}"


def create(api, **body):
    response = api.post(URL, {**REQUIRED, **body}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def assert_invalid(response, field):
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    assert any(key == field or key.startswith(f"{field}.") for key in body["details"]["fields"]), body


@pytest.fixture
def plan(organization):
    return Plan.objects.create(organization=organization, name="Monthly", price="30.00")


def test_create_returns_every_field(api, organization, plan):
    response = api.post(
        URL,
        {
            "name": "Member terms",
            "documentType": "terms",
            "contentItemId": None,
            "documentUrl": "https://gym.example.com/terms.pdf",
            "requirement": "accept",
            "appliesTo": "plans",
            "planIds": [plan.id],
            "renewEveryDays": 365,
            "isActive": False,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert response["Location"] == item(body["id"])
    assert {k: v for k, v in body.items() if k not in ("id", "createdAt", "updatedAt")} == {
        "name": "Member terms",
        "documentType": "terms",
        "contentItemId": None,
        "documentUrl": "https://gym.example.com/terms.pdf",
        "requirement": "accept",
        "appliesTo": "plans",
        "planIds": [plan.id],
        "classTypeIds": [],
        "eventIds": [],
        "renewEveryDays": 365,
        "isActive": False,
    }
    assert list(DocumentRule.objects.get(pk=body["id"]).plans.all()) == [plan]
    assert api.get(item(body["id"])).json() == body


def test_defaults(api):
    body = create(api)
    assert body["isActive"] is True
    assert body["renewEveryDays"] is None and body["documentUrl"] is None
    assert body["planIds"] == [] and body["classTypeIds"] == [] and body["eventIds"] == []


def test_required_fields(api):
    response = api.post(URL, {}, format="json")
    assert response.status_code == 400
    assert set(response.json()["details"]["fields"]) == {"name", "documentType", "requirement", "appliesTo"}
    assert DocumentRule.objects.count() == 0


@pytest.mark.parametrize(
    "field, good, bad",
    [
        ("name", "x" * 120, "x" * 121),
        ("name", "x", ""),
        ("documentType", "contract", "letter"),
        ("documentType", "policy", 1),
        ("requirement", "accept", "read"),
        ("renewEveryDays", 1, 0),
        ("renewEveryDays", 3650, 3651),
        ("renewEveryDays", None, "30"),
        ("documentUrl", "https://x.example/" + "a" * 1982, "https://x.example/" + "a" * 1983),
        ("documentUrl", None, "not a url"),
        ("documentUrl", "http://x.example/doc", 5),
        ("isActive", False, "false"),
        ("contentItemId", None, 1),
        ("contentItemId", None, "1"),
        ("eventIds", [], [1]),
    ],
)
def test_bounds_at_their_edges(api, field, good, bad):
    applies_to = "events" if field == "eventIds" else "all_contacts"
    assert api.post(URL, {**REQUIRED, "appliesTo": applies_to, field: good}, format="json").status_code == 201
    assert_invalid(api.post(URL, {**REQUIRED, "appliesTo": applies_to, field: bad}, format="json"), field)


def test_applies_to_values(api):
    for value in ("all_contacts", "members", "plans", "class_types", "events"):
        assert create(api, appliesTo=value)["appliesTo"] == value
    assert_invalid(api.post(URL, {**REQUIRED, "appliesTo": "everyone"}, format="json"), "appliesTo")


def test_id_lists_belong_to_their_applies_to_and_the_organization(api, organization, other_organization, plan):
    class_type = ClassType.objects.create(organization=organization, name="Yoga")
    assert_invalid(api.post(URL, {**REQUIRED, "planIds": [plan.id]}, format="json"), "planIds")
    assert_invalid(
        api.post(URL, {**REQUIRED, "appliesTo": "plans", "classTypeIds": [class_type.id]}, format="json"),
        "classTypeIds",
    )
    foreign = Plan.objects.create(organization=other_organization, name="F", price="1.00")
    assert_invalid(api.post(URL, {**REQUIRED, "appliesTo": "plans", "planIds": [foreign.id]}, format="json"), "planIds")
    rule = create(api, appliesTo="class_types", classTypeIds=[class_type.id])
    assert rule["classTypeIds"] == [class_type.id]
    assert_invalid(api.patch(item(rule["id"]), {"appliesTo": "plans"}, format="json"), "classTypeIds")
    moved = api.patch(item(rule["id"]), {"appliesTo": "plans", "classTypeIds": [], "planIds": [plan.id]}, format="json")
    assert moved.status_code == 200, moved.json()
    assert (moved.json()["planIds"], moved.json()["classTypeIds"]) == ([plan.id], [])


def test_patch_changes_only_the_fields_sent(api):
    rule = create(api, renewEveryDays=30, documentUrl="https://x.example/w")
    response = api.patch(item(rule["id"]), {"isActive": False, "documentUrl": None}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["isActive"], body["documentUrl"], body["renewEveryDays"], body["name"]) == (False, None, 30, "Waiver")
    assert_invalid(api.patch(item(rule["id"]), {"renewEveryDays": 0}, format="json"), "renewEveryDays")
    assert DocumentRule.objects.get(pk=rule["id"]).renew_every_days == 30


def test_list_filters(api):
    a = create(api, appliesTo="members")
    b = create(api, appliesTo="all_contacts", isActive=False)
    c = create(api, appliesTo="events")

    def ids(**params):
        response = api.get(URL, params)
        assert response.status_code == 200, response.json()
        return [row["id"] for row in response.json()["data"]]

    assert ids() == [a["id"], b["id"], c["id"]]
    assert ids(appliesTo="members,events") == [a["id"], c["id"]]
    assert ids(isActive="false") == [b["id"]]
    assert ids(isActive="true", appliesTo="events") == [c["id"]]
    for params in ({"appliesTo": "people"}, {"isActive": "maybe"}):
        response = api.get(URL, params)
        assert response.status_code == 400 and response.json()["code"] == "VALIDATION_ERROR", params


def test_delete(api, plan):
    rule = create(api, appliesTo="plans", planIds=[plan.id])
    assert api.delete(item(rule["id"])).status_code == 204
    assert not DocumentRule.objects.filter(pk=rule["id"]).exists()
    assert Plan.objects.filter(pk=plan.id).exists()
    assert api.get(item(rule["id"])).status_code == 404


def test_another_organizations_rules_are_invisible(api, other_organization):
    foreign = DocumentRule.objects.create(
        organization=other_organization, name="F", document_type="waiver", requirement="sign", applies_to="members"
    )
    assert api.get(URL).json()["total"] == 0
    assert api.get(item(foreign.id)).status_code == 404
    assert api.patch(item(foreign.id), {"name": "Mine"}, format="json").status_code == 404
    assert api.delete(item(foreign.id)).status_code == 404
    assert DocumentRule.objects.get(pk=foreign.id).name == "F"


def test_the_document_text_is_a_content_item_of_the_organization(api, organization, other_organization):
    waiver = ContentItem.objects.create(organization=organization, type="document", title="Waiver", slug="waiver")
    rule = create(api, contentItemId=waiver.id)
    assert rule["contentItemId"] == waiver.id
    assert api.get(f"{URL}/{rule['id']}").json()["contentItemId"] == waiver.id
    assert api.patch(f"{URL}/{rule['id']}", {"contentItemId": None}, format="json").json()["contentItemId"] is None
    foreign = ContentItem.objects.create(organization=other_organization, type="document", title="F", slug="f")
    assert_invalid(api.post(URL, {**REQUIRED, "contentItemId": foreign.id}, format="json"), "contentItemId")


def test_event_ids_name_events_of_the_organization(api, organization, other_organization, club):
    ours = make_event(organization, club)
    theirs = make_event(other_organization, Club.objects.create(organization=other_organization, name="R", slug="r"))
    rule = create(api, appliesTo="events", eventIds=[ours.id])
    assert rule["eventIds"] == [ours.id]
    assert api.get(f"{URL}/{rule['id']}").json()["eventIds"] == [ours.id]
    assert_invalid(
        api.post(URL, {**REQUIRED, "appliesTo": "events", "eventIds": [theirs.id]}, format="json"), "eventIds"
    )
    assert_invalid(api.post(URL, {**REQUIRED, "eventIds": [ours.id]}, format="json"), "eventIds")  # not `events`
