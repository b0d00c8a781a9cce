import itertools

from django.utils import timezone

from apps.classes.models import ClassType, ProgressionLevel, ProgressionTrack
from apps.organizations.models import ApiKey
from tests.harness import EndpointCase


def _settle_key_usage(organization):
    """The first request of a fresh API key also writes `last_used_at`; mark the keys used so the contract's
    one-row vs many-rows query comparison counts only the list's own queries."""
    ApiKey.objects.filter(organization=organization).update(last_used_at=timezone.now())


_seq = itertools.count()


def class_type_ids(organization):
    return {"id": ClassType.objects.create(organization=organization, name="Yoga").id}


def class_type_rows(organization, n):
    _settle_key_usage(organization)
    ClassType.objects.bulk_create([ClassType(organization=organization, name=f"Type {i}") for i in range(n)])


def _track(organization):
    n = next(_seq)
    track = ProgressionTrack.objects.create(organization=organization, name=f"Track {n}", slug=f"track-{n}")
    track.class_types.add(ClassType.objects.create(organization=organization, name=f"Type {n}"))
    ProgressionLevel.objects.create(track=track, name="Beginner", position=1)
    ProgressionLevel.objects.create(track=track, name="Advanced", position=2)
    return track


def track_ids(organization):
    return {"id": _track(organization).id}


def track_rows(organization, n):
    _settle_key_usage(organization)
    for _ in range(n):
        _track(organization)


CASES = [
    EndpointCase("GET", "/v1/platform/class-types", "classes:read", list_rows=class_type_rows),
    EndpointCase("GET", "/v1/platform/class-types/{id}", "classes:read", setup=class_type_ids),
    EndpointCase("POST", "/v1/platform/class-types", "classes:write", body={"name": "Yoga"}),
    EndpointCase("PATCH", "/v1/platform/class-types/{id}", "classes:write", setup=class_type_ids, body={}),
    EndpointCase("DELETE", "/v1/platform/class-types/{id}", "classes:write", setup=class_type_ids),
    EndpointCase("GET", "/v1/platform/progression-tracks", "classes:read", list_rows=track_rows),
    EndpointCase("GET", "/v1/platform/progression-tracks/{id}", "classes:read", setup=track_ids),
]
