"""Inputs of the marketplace API: the club search's query parameters and the offer search's JSON body."""

from rest_framework import serializers

from apps.api.fields import StrictCharField, StrictFloatField, StrictIntegerField, StrictRegexField
from apps.api.pagination import DEFAULT_LIMIT, MAX_LIMIT

from .. import offers, search
from ..choices import OfferDuration
from ..gazetteer import MAX_PLACE_LENGTH

HHMM = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"
HHMM_MESSAGE = "Must be a time of day, HH:MM (00:00 to 23:59)."
MAX_OFFSET = 1_000_000


class ClampedLimitMixin:
    def validate_limit(self, value):
        return min(value, MAX_LIMIT)


def check_point(attrs: dict) -> None:
    """`lat` and `lng` go together."""
    has_lat, has_lng = attrs.get("lat") is not None, attrs.get("lng") is not None
    if has_lat != has_lng:
        missing = "lng" if has_lat else "lat"
        raise serializers.ValidationError({missing: ["`lat` and `lng` go together."]})


class ClubSearchQuery(ClampedLimitMixin, serializers.Serializer):
    """Query parameters of `GET /v1/public/search/clubs` (strings in a query, hence the plain fields)."""

    q = serializers.CharField(max_length=200, required=False, allow_blank=True, help_text="A name or a sport.")
    location = serializers.CharField(
        max_length=MAX_PLACE_LENGTH,
        required=False,
        allow_blank=True,
        help_text='A place: a city name, optionally with its country ("Valencia, ES", "Valencia, Venezuela"). '
        "A name several cities share is the most populous of them.",
    )
    lat = serializers.FloatField(
        min_value=-90, max_value=90, required=False, help_text="With `lng`; wins over `location`."
    )
    lng = serializers.FloatField(min_value=-180, max_value=180, required=False, help_text="With `lat`.")
    sport = serializers.CharField(max_length=60, required=False, allow_blank=True)
    date = serializers.DateField(
        input_formats=["%Y-%m-%d"], required=False, help_text="YYYY-MM-DD: only clubs open that day, on their clock."
    )
    radiusKm = serializers.FloatField(
        min_value=0.1,
        max_value=search.MAX_RADIUS_KM,
        default=search.DEFAULT_RADIUS_KM,
        help_text="Around the place or point (default 50).",
    )
    limit = serializers.IntegerField(min_value=1, default=DEFAULT_LIMIT, help_text="Default 50, at most 200.")
    offset = serializers.IntegerField(min_value=0, max_value=MAX_OFFSET, default=0)

    def validate(self, attrs):
        check_point(attrs)
        return attrs


class OfferSearch(ClampedLimitMixin, serializers.Serializer):
    """The body of `POST /v1/public/network/search/offers`."""

    location = StrictCharField(
        max_length=MAX_PLACE_LENGTH,
        required=False,
        help_text='A place ("Madrid", "Valencia, ES"); required unless `lat`/`lng` is given.',
    )
    lat = StrictFloatField(min_value=-90, max_value=90, required=False, help_text="With `lng`; wins over `location`.")
    lng = StrictFloatField(min_value=-180, max_value=180, required=False, help_text="With `lat`.")
    sports = serializers.ListField(
        child=StrictCharField(max_length=60),
        max_length=20,
        required=False,
        default=list,
        help_text="Courts serving any of these sports; all courts when empty.",
    )
    date = serializers.DateField(input_formats=["%Y-%m-%d"], help_text="YYYY-MM-DD, on each club's clock.")
    earliestTime = StrictRegexField(
        HHMM, required=False, error_messages={"invalid": HHMM_MESSAGE}, help_text="HH:MM; the earliest start."
    )
    latestTime = StrictRegexField(
        HHMM, required=False, error_messages={"invalid": HHMM_MESSAGE}, help_text="HH:MM; the latest start."
    )
    durationMinutes = serializers.ChoiceField(
        choices=OfferDuration.choices, default=60, error_messages={"invalid_choice": "Must be 30, 60, 90 or 120."}
    )
    radiusKm = StrictFloatField(min_value=0.1, max_value=offers.MAX_RADIUS_KM, default=offers.DEFAULT_RADIUS_KM)
    limit = StrictIntegerField(min_value=1, default=DEFAULT_LIMIT, help_text="Default 50, at most 200.")
    offset = StrictIntegerField(min_value=0, max_value=MAX_OFFSET, default=0)

    def validate(self, attrs):
        check_point(attrs)
        if attrs.get("lat") is None and not (attrs.get("location") or "").strip():
            raise serializers.ValidationError({"location": ["Required unless `lat` and `lng` are given."]})
        earliest, latest = attrs.get("earliestTime"), attrs.get("latestTime")
        if earliest and latest and latest < earliest:
            raise serializers.ValidationError({"latestTime": ["Must not be before `earliestTime`."]})
        return attrs
