"""Booking policies through the HTTP API: fields and their bounds, filters, one default per appliesTo, duplicate,
delete, tenancy."""

import pytest

from apps.classes.models import ClassType
from apps.clubs.models import AreaType, Club
from apps.policies.models import BookingPolicy

URL = "/v1/platform/booking-policies"


def item(pk):
    return f"{URL}/{pk}"


def create(api, **body):
    body = {"name": "Policy", "appliesTo": "areas", **body}
    response = api.post(URL, body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def defaults(organization, applies_to):
    return list(
        BookingPolicy.objects.filter(organization=organization, applies_to=applies_to, is_default=True).values_list(
            "id", flat=True
        )
    )


def assert_invalid(response, field):
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    assert any(key == field or key.startswith(f"{field}.") for key in body["details"]["fields"]), body


def test_create_returns_every_field(api, organization, club, area_type):
    response = api.post(
        URL,
        {
            "name": "Courts",
            "appliesTo": "areas",
            "clubId": club.id,
            "areaTypeIds": [area_type.id, area_type.id],
            "advanceBookingDays": 14,
            "minAdvanceMinutes": 30,
            "maxDurationMinutes": 120,
            "cancellationWindowHours": 24,
            "lateCancellationFee": 5.5,
            "maxActiveBookingsPerContact": 3,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert response["Location"] == item(body["id"])
    assert {k: v for k, v in body.items() if k not in ("id", "createdAt", "updatedAt")} == {
        "name": "Courts",
        "appliesTo": "areas",
        "clubId": club.id,
        "areaTypeIds": [area_type.id],
        "classTypeIds": [],
        "advanceBookingDays": 14,
        "minAdvanceMinutes": 30,
        "maxDurationMinutes": 120,
        "cancellationWindowHours": 24,
        "lateCancellationFee": 5.5,
        "maxActiveBookingsPerContact": 3,
        "isDefault": True,  # the first policy of its appliesTo
    }
    policy = BookingPolicy.objects.get(pk=body["id"])
    assert str(policy.late_cancellation_fee) == "5.50"
    assert list(policy.area_types.all()) == [area_type]
    assert api.get(item(body["id"])).json() == body


def test_name_and_applies_to_are_required(api):
    response = api.post(URL, {}, format="json")
    assert_invalid(response, "name")
    assert "appliesTo" in response.json()["details"]["fields"]
    assert BookingPolicy.objects.count() == 0


@pytest.mark.parametrize(
    "field, good, bad",
    [
        ("name", "x" * 120, "x" * 121),
        ("name", "x", ""),
        ("appliesTo", "instructors", "courts"),
        ("advanceBookingDays", 0, -1),
        ("advanceBookingDays", 730, 731),
        ("minAdvanceMinutes", 43200, 43201),
        ("maxDurationMinutes", 1, 0),
        ("maxDurationMinutes", 1440, 1441),
        ("cancellationWindowHours", 720, 721),
        ("lateCancellationFee", 0, -0.01),
        ("lateCancellationFee", 99999999.99, 100000000),
        ("lateCancellationFee", 1.25, 1.255),
        ("lateCancellationFee", 3, "3"),
        ("maxActiveBookingsPerContact", 1, 0),
        ("maxActiveBookingsPerContact", 1000, 1001),
        ("advanceBookingDays", None, "7"),
        ("advanceBookingDays", 7, 7.5),
        ("advanceBookingDays", 7, True),
        ("isDefault", True, "true"),
        ("clubId", None, "1"),
    ],
)
def test_bounds_at_their_edges(api, field, good, bad):
    applies_to = good if field == "appliesTo" else "areas"
    assert api.post(URL, {"name": "P", "appliesTo": applies_to, field: good}, format="json").status_code == 201
    assert_invalid(api.post(URL, {"name": "P", "appliesTo": "areas", field: bad}, format="json"), field)


def test_id_lists_are_bounded_typed_and_the_organizations_own(api, organization, other_organization):
    types = AreaType.objects.bulk_create(
        [AreaType(organization=organization, name=f"T{i}", slug=f"t{i}") for i in range(101)]
    )
    ids = [t.id for t in types]
    assert create(api, areaTypeIds=ids[:100])["areaTypeIds"] == sorted(ids[:100])
    assert_invalid(api.post(URL, {"name": "P", "appliesTo": "areas", "areaTypeIds": ids}, format="json"), "areaTypeIds")
    foreign = AreaType.objects.create(organization=other_organization, name="F", slug="f")
    response = api.post(URL, {"name": "P", "appliesTo": "areas", "areaTypeIds": [foreign.id]}, format="json")
    assert_invalid(response, "areaTypeIds")
    assert str(foreign.id) in response.json()["details"]["fields"]["areaTypeIds"][0]
    for bad in ("1", ["1"], [0], [True], {"id": 1}):
        assert_invalid(
            api.post(URL, {"name": "P", "appliesTo": "areas", "areaTypeIds": bad}, format="json"), "areaTypeIds"
        )
    foreign_club = Club.objects.create(organization=other_organization, name="C", slug="c", timezone="UTC")
    assert_invalid(
        api.post(URL, {"name": "P", "appliesTo": "areas", "clubId": foreign_club.id}, format="json"), "clubId"
    )


def test_id_lists_belong_to_their_applies_to(api, organization, area_type):
    class_type = ClassType.objects.create(organization=organization, name="Yoga")
    assert_invalid(
        api.post(URL, {"name": "P", "appliesTo": "classes", "areaTypeIds": [area_type.id]}, format="json"),
        "areaTypeIds",
    )
    assert_invalid(
        api.post(URL, {"name": "P", "appliesTo": "areas", "classTypeIds": [class_type.id]}, format="json"),
        "classTypeIds",
    )
    policy = create(api, appliesTo="classes", classTypeIds=[class_type.id])
    assert policy["classTypeIds"] == [class_type.id]
    # moving it to areas while it still covers class types is refused; clearing them in the same PATCH works
    assert_invalid(api.patch(item(policy["id"]), {"appliesTo": "areas"}, format="json"), "classTypeIds")
    moved = api.patch(item(policy["id"]), {"appliesTo": "areas", "classTypeIds": []}, format="json")
    assert moved.status_code == 200, moved.json()
    assert moved.json()["appliesTo"] == "areas" and moved.json()["classTypeIds"] == []


def test_patch_changes_only_the_fields_sent_and_replaces_id_lists(api, organization, area_type):
    other_type = AreaType.objects.create(organization=organization, name="Tennis", slug="tennis")
    policy = create(api, areaTypeIds=[area_type.id], maxDurationMinutes=90, lateCancellationFee=2)
    response = api.patch(
        item(policy["id"]), {"areaTypeIds": [other_type.id], "lateCancellationFee": None}, format="json"
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["areaTypeIds"] == [other_type.id]
    assert body["lateCancellationFee"] is None
    assert body["maxDurationMinutes"] == 90 and body["name"] == "Policy"
    assert_invalid(api.patch(item(policy["id"]), {"maxDurationMinutes": 0}, format="json"), "maxDurationMinutes")
    assert BookingPolicy.objects.get(pk=policy["id"]).max_duration_minutes == 90


def test_first_policy_of_each_applies_to_is_its_default(api, organization):
    areas = create(api, appliesTo="areas")
    second = create(api, appliesTo="areas")
    classes = create(api, appliesTo="classes")
    assert (areas["isDefault"], second["isDefault"], classes["isDefault"]) == (True, False, True)
    assert defaults(organization, "areas") == [areas["id"]]


def test_making_another_policy_the_default_switches_it(api, organization):
    first = create(api)
    classes = create(api, appliesTo="classes")
    second = create(api, isDefault=True)
    assert second["isDefault"] is True
    assert api.get(item(first["id"])).json()["isDefault"] is False
    assert defaults(organization, "areas") == [second["id"]]
    third = create(api)
    response = api.patch(item(third["id"]), {"isDefault": True}, format="json")
    assert response.status_code == 200 and response.json()["isDefault"] is True
    assert defaults(organization, "areas") == [third["id"]]
    assert defaults(organization, "classes") == [classes["id"]]  # other appliesTo untouched


def test_the_default_cannot_stop_being_one_by_itself(api, organization):
    first = create(api)
    response = api.patch(item(first["id"]), {"isDefault": False}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "CONFLICT"
    assert defaults(organization, "areas") == [first["id"]]
    second = create(api)
    assert api.patch(item(second["id"]), {"isDefault": False}, format="json").status_code == 200  # no-op


def test_moving_the_default_to_another_applies_to(api, organization):
    alone = create(api, appliesTo="instructors")
    moved = api.patch(item(alone["id"]), {"appliesTo": "classes"}, format="json")
    assert moved.status_code == 200 and moved.json()["isDefault"] is True  # first of classes
    assert defaults(organization, "instructors") == []  # none left there
    first, second = create(api), create(api)
    refused = api.patch(item(first["id"]), {"appliesTo": "classes"}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "CONFLICT"
    joined = api.patch(item(second["id"]), {"appliesTo": "classes"}, format="json").json()
    assert joined["isDefault"] is False  # classes already has its default
    taking_over = api.patch(item(second["id"]), {"appliesTo": "areas", "isDefault": True}, format="json")
    assert taking_over.json()["isDefault"] is True
    assert defaults(organization, "areas") == [second["id"]]
    assert defaults(organization, "classes") == [alone["id"]]


def test_delete(api, organization):
    default, other = create(api), create(api)
    refused = api.delete(item(default["id"]))
    assert refused.status_code == 409 and refused.json()["code"] == "CONFLICT"
    assert api.delete(item(other["id"])).status_code == 204
    assert not BookingPolicy.objects.filter(pk=other["id"]).exists()
    assert api.delete(item(default["id"])).status_code == 204  # the last one of its appliesTo
    assert api.get(item(default["id"])).status_code == 404
    assert api.delete(item(default["id"])).status_code == 404


def test_duplicate_copies_every_field_never_the_default(api, organization, club, area_type):
    original = create(
        api,
        name="Courts",
        clubId=club.id,
        areaTypeIds=[area_type.id],
        advanceBookingDays=7,
        lateCancellationFee=4.5,
        maxActiveBookingsPerContact=2,
    )
    response = api.post(f"{item(original['id'])}/duplicate")
    assert response.status_code == 201, response.json()
    copy = response.json()
    assert response["Location"] == item(copy["id"])
    assert copy["id"] != original["id"]
    assert copy["name"] == "Courts (copy)"
    assert copy["isDefault"] is False
    ignored = ("id", "name", "isDefault", "createdAt", "updatedAt")
    assert {k: v for k, v in copy.items() if k not in ignored} == {
        k: v for k, v in original.items() if k not in ignored
    }
    assert defaults(organization, "areas") == [original["id"]]
    assert api.get(URL).json()["total"] == 2


def test_duplicate_keeps_the_name_within_120_characters(api):
    original = create(api, name="n" * 120)
    copy = api.post(f"{item(original['id'])}/duplicate").json()
    assert copy["name"] == "n" * 113 + " (copy)"
    assert len(copy["name"]) == 120


def test_list_filters(api, organization, club):
    other_club = Club.objects.create(organization=organization, name="Annex", slug="annex", timezone="Europe/Madrid")
    a = create(api, appliesTo="areas", clubId=club.id)
    b = create(api, appliesTo="classes", clubId=other_club.id)
    c = create(api, appliesTo="instructors")

    def ids(**params):
        response = api.get(URL, params)
        assert response.status_code == 200, response.json()
        return [row["id"] for row in response.json()["data"]]

    assert ids() == [a["id"], b["id"], c["id"]]
    assert ids(appliesTo="classes") == [b["id"]]
    assert ids(appliesTo="areas,instructors") == [a["id"], c["id"]]
    assert ids(clubId=club.id) == [a["id"]]
    for params in ({"appliesTo": "courts"}, {"clubId": "x"}):
        response = api.get(URL, params)
        assert response.status_code == 400, params
        assert response.json()["code"] == "VALIDATION_ERROR"


def test_another_organizations_policies_are_invisible(api, other_organization):
    foreign = BookingPolicy.objects.create(
        organization=other_organization, name="F", applies_to="areas", is_default=True
    )
    assert api.get(URL).json()["total"] == 0
    for response in (
        api.get(item(foreign.id)),
        api.patch(item(foreign.id), {"name": "Mine"}, format="json"),
        api.delete(item(foreign.id)),
        api.post(f"{item(foreign.id)}/duplicate"),
    ):
        assert response.status_code == 404
    # and its default does not count as this organization's
    assert create(api)["isDefault"] is True
    assert BookingPolicy.objects.get(pk=foreign.id).name == "F"


def test_bookings_are_not_checked_against_policies(api, organization, area, contact):
    """API writes of bookings do not enforce booking policies (docs/decisions/policies.md)."""
    create(api, maxDurationMinutes=30, advanceBookingDays=0, minAdvanceMinutes=43200)
    response = api.post(
        "/v1/platform/bookings",
        {
            "areaId": area.id,
            "contactId": contact.id,
            "startTime": "2031-03-03T10:00:00Z",
            "endTime": "2031-03-03T12:00:00Z",
        },
        format="json",
    )
    assert response.status_code == 201, response.json()


def test_deleted_types_leave_the_lists(organization):
    """Deleting a class type or area type drops it from the policies' lists (no dangling ids)."""
    class_type = ClassType.objects.create(organization=organization, name="Yoga")
    policy = BookingPolicy.objects.create(organization=organization, name="P", applies_to="classes")
    policy.class_types.add(class_type)
    class_type.delete()
    assert list(policy.class_types.all()) == []
