"""`usesRemaining` end to end: a plan created through the API with `maxUses`, a membership sold through the API,
seats and walk-ins drawn from it through the API until none is left."""

from tests.factories import make_class


def test_class_seats_and_walk_ins_consume_the_uses_of_a_sold_membership(api, organization, club, contact):
    plan = api.post(
        "/v1/platform/plans",
        {
            "name": "2-visit pass",
            "price": 20,
            "billingFrequency": "one_time",
            "maxUses": 2,
            "validityPeriod": 30,
            "validFor": {"scopes": ["classes"]},
        },
        format="json",
    ).json()
    membership = api.post(
        "/v1/platform/memberships", {"contactId": contact.id, "planId": plan["id"]}, format="json"
    ).json()
    url = f"/v1/platform/memberships/{membership['id']}"
    assert membership["usesRemaining"] == 2
    yoga, pilates, spin = (make_class(organization, club, name=name) for name in ("Yoga", "Pilates", "Spin"))

    seat = api.post(
        f"/v1/platform/classes/{yoga.id}/bookings",
        {"contactId": contact.id, "membershipId": membership["id"]},
        format="json",
    )
    assert seat.status_code == 201, seat.content
    assert (seat.json()["entranceMethod"], seat.json()["membershipId"]) == ("membership", membership["id"])
    assert api.get(url).json()["usesRemaining"] == 1

    walk_in = api.post("/v1/platform/checkins", {"membershipId": membership["id"], "clubId": club.id}, format="json")
    assert walk_in.status_code == 201, walk_in.content
    assert api.get(url).json()["usesRemaining"] == 0

    refused = api.post(
        f"/v1/platform/classes/{pilates.id}/bookings",
        {"contactId": contact.id, "membershipId": membership["id"]},
        format="json",
    )
    assert refused.status_code == 409
    assert (refused.json()["code"], refused.json()["details"]) == ("MEMBERSHIP_NOT_VALID", {"reason": "no_uses_left"})
    refused = api.post("/v1/platform/checkins", {"membershipId": membership["id"], "classId": spin.id}, format="json")
    assert refused.status_code == 409 and refused.json()["details"] == {"reason": "no_uses_left"}

    assert api.post(f"/v1/platform/bookings/{seat.json()['bookingId']}/cancel").status_code == 200
    assert api.get(url).json()["usesRemaining"] == 1  # the cancelled seat gives its use back

    assert api.post(f"{url}/pause").status_code == 200
    refused = api.post("/v1/platform/checkins", {"membershipId": membership["id"], "clubId": club.id}, format="json")
    assert refused.status_code == 409 and refused.json()["details"] == {"reason": "not_active"}
    assert api.get(url).json()["usesRemaining"] == 1
