"""The default switch under real parallel connections on PostgreSQL: exactly one default per appliesTo."""

import pytest

from apps.policies.models import BookingPolicy
from tests.concurrency import race

URL = "/v1/platform/booking-policies"


def _defaults(organization, applies_to="areas"):
    return list(
        BookingPolicy.objects.filter(organization=organization, applies_to=applies_to, is_default=True).values_list(
            "id", flat=True
        )
    )


@pytest.mark.django_db(transaction=True)
def test_parallel_switches_leave_exactly_one_default(organization, client_for):
    n = 6
    clients = [client_for("booking-policies:write booking-policies:read") for _ in range(n)]
    policies = [clients[0].post(URL, {"name": f"P{i}", "appliesTo": "areas"}, format="json").json() for i in range(n)]
    assert _defaults(organization) == [policies[0]["id"]]
    for _ in range(3):
        calls = [
            (
                lambda client=client, policy=policy: client.patch(
                    f"{URL}/{policy['id']}", {"isDefault": True}, format="json"
                )
            )
            for client, policy in zip(clients, policies, strict=True)
        ]
        responses = race(calls)
        assert [r.status_code for r in responses] == [200] * n, [r.content for r in responses]
        winners = _defaults(organization)
        assert len(winners) == 1
        listed = clients[0].get(URL, {"appliesTo": "areas"}).json()["data"]
        assert [row["id"] for row in listed if row["isDefault"]] == winners


@pytest.mark.django_db(transaction=True)
def test_parallel_first_creates_make_one_default(organization, client_for):
    n = 6
    clients = [client_for("booking-policies:write") for _ in range(n)]
    responses = race(
        [
            (lambda client=client, i=i: client.post(URL, {"name": f"P{i}", "appliesTo": "classes"}, format="json"))
            for i, client in enumerate(clients)
        ]
    )
    assert [r.status_code for r in responses] == [201] * n, [r.content for r in responses]
    assert sum(r.json()["isDefault"] for r in responses) == 1
    assert len(_defaults(organization, "classes")) == 1


@pytest.mark.django_db(transaction=True)
def test_parallel_creates_asking_for_the_default_leave_one(organization, client_for):
    n = 6
    clients = [client_for("booking-policies:write") for _ in range(n)]
    clients[0].post(URL, {"name": "Old", "appliesTo": "instructors"}, format="json")
    responses = race(
        [
            (
                lambda client=client, i=i: client.post(
                    URL, {"name": f"P{i}", "appliesTo": "instructors", "isDefault": True}, format="json"
                )
            )
            for i, client in enumerate(clients)
        ]
    )
    assert [r.status_code for r in responses] == [201] * n
    assert len(_defaults(organization, "instructors")) == 1
    assert BookingPolicy.objects.filter(organization=organization, applies_to="instructors").count() == n + 1
