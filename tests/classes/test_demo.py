"""The classes demo seed: idempotent, and what later apps read from ctx."""

from apps.classes import demo
from apps.classes.models import ClassOccurrence, ClassSeries
from apps.clubs.models import Area


def test_seed_is_idempotent(organization, club, area, instructor, class_type):
    ctx = {"clubs": [club], "rooms": [area], "instructors": [instructor], "class_types": {"yoga": class_type}}
    demo.seed(organization, ctx)
    count = ClassOccurrence.objects.count()
    assert ctx["full_class"].max_capacity == 4
    assert len(ctx["classes"]) == 5
    series = ClassSeries.objects.get()
    assert series.ends_type == "never" and series.days_of_week == ["monday", "wednesday", "friday"]
    assert ClassOccurrence.objects.filter(series=series).count() >= 36
    demo.seed(organization, dict(ctx))
    assert ClassOccurrence.objects.count() == count
    assert Area.objects.count() == 1
