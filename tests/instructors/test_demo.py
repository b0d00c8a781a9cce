"""The demo data seeds instructors and class types, and is idempotent."""

from apps.classes.models import ClassType, ProgressionTrack
from apps.instructors import demo
from apps.instructors.models import Instructor, InstructorType, PayRatePolicy


def test_seed_is_idempotent(organization, club, api):
    ctx = {"clubs": [club]}
    demo.seed(organization, ctx)
    demo.seed(organization, dict(ctx))
    assert InstructorType.objects.filter(organization=organization).count() == 2
    assert PayRatePolicy.objects.filter(organization=organization).count() == 1
    assert Instructor.objects.filter(organization=organization).count() == 3
    assert ClassType.objects.filter(organization=organization).count() == 3
    assert ProgressionTrack.objects.filter(organization=organization).count() == 1
    assert ctx["class_types"]["padel-clinic"].max_party_size == 2
    assert len(ctx["instructors"]) == 3

    listed = api.get("/v1/platform/instructors").json()
    assert listed["total"] == 3
    assert all(row["weeklyAvailability"] for row in listed["data"])
    assert listed["data"][0]["weeklyAvailability"][0]["clubId"] == club.id
