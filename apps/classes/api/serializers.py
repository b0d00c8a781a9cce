"""Input validation of class writes (camelCase bodies mapped to model fields) and the documented response shapes."""

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from apps.api.exceptions import ApiError, FieldNotWritable, UnknownField
from apps.api.fields import (
    BoundedDateTimeField,
    InputSerializer,
    OrganizationIdsField,
    OrganizationObjectField,
    StrictBooleanField,
    StrictCharField,
    StrictDecimalField,
    StrictIntegerField,
    StrictRegexField,
)
from apps.clubs.choices import DayOfWeek
from apps.clubs.models import Area, Club
from apps.instructors.models import Instructor

from ..choices import (
    EditScope,
    EndsType,
    Frequency,
    Visibility,
)
from ..models import ClassType
from ..recurrence import max_occurrences

CADENCE_KEYS = ("frequency", "interval", "daysOfWeek")


class ClassWriteSerializer(InputSerializer):
    """The spec's Class create body (every field optional on update, `partial=True`)."""

    clubId = OrganizationObjectField(model=Club)
    name = StrictCharField(max_length=100)
    startTime = BoundedDateTimeField()
    endTime = BoundedDateTimeField()
    areaId = OrganizationObjectField(model=Area, allow_null=True, required=False)
    classTypeId = OrganizationObjectField(model=ClassType, allow_null=True, required=False)
    instructorIds = OrganizationIdsField(
        Instructor, "instructor", max_length=20, required=False, source="instructor_ids"
    )
    description = StrictCharField(max_length=5000, allow_null=True, allow_blank=True, required=False)
    priceBeforeTax = StrictDecimalField(max_digits=10, decimal_places=2, min_value=0, allow_null=True, required=False)
    isFree = StrictBooleanField(required=False)
    maxCapacity = StrictIntegerField(min_value=1, allow_null=True, required=False)
    visibility = serializers.ChoiceField(choices=Visibility.choices, required=False)
    sport = StrictCharField(max_length=60, allow_null=True, allow_blank=True, required=False)
    color = StrictRegexField(r"^#[0-9a-fA-F]{6}$", allow_null=True, required=False)
    allowWaitlist = StrictBooleanField(required=False)

    def validate(self, attrs):
        start, end = attrs.get("start_time"), attrs.get("end_time")
        if start is not None and end is not None and end <= start:
            raise serializers.ValidationError({"endTime": ["Must be after startTime."]})
        area, club = attrs.get("area"), attrs.get("club")
        if area is not None and club is not None and area.club_id != club.pk:
            raise serializers.ValidationError({"areaId": ["The area does not belong to this club."]})
        return attrs


CLASS_FIELD_NAMES = tuple(ClassWriteSerializer().fields)


@extend_schema_serializer(component_name="ClassCancel")
class CancelSerializer(InputSerializer):
    reason = StrictCharField(max_length=2000, allow_null=True, allow_blank=True, required=False)
    notifyCustomer = StrictBooleanField(required=False, default=False)


# --- raw-body checks the serializers cannot express -----------------------------------------------------------


def reject_price(body: dict):
    if "price" in body:
        raise FieldNotWritable("price", "`price` is computed (tax-inclusive); send `priceBeforeTax` instead.")


# --- recurrence: nested bodies whose rules depend on each other ---------------------------------------------


def _one_message(message: str, *keys: str) -> dict:
    return dict.fromkeys(keys, message)


def _choices_message(choices) -> str:
    return f"Must be one of: {', '.join(choices.values)}."


# No docstrings on these serializers: drf-spectacular would publish them as the components' descriptions.


class StrictKeysSerializer(serializers.Serializer):
    # A nested object whose unknown keys are 400 UNKNOWN_FIELD, named by their dotted path (the top level of a body
    # ignores unknown keys; a misspelt recurrence key must not silently make a different series). A null value
    # counts as an absent key.

    known_keys: tuple[str, ...] | None = None  # accepted keys besides the fields (refused more precisely later)

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("error_messages", {"invalid": "Must be an object."})
        super().__init__(*args, **kwargs)
        for field in self.fields.values():  # null is an absent key: the document says so (nullable)
            field.allow_null = field.allow_null or not field.required

    def path(self) -> str:
        names, field = [], self
        while field is not None and field.field_name:
            names.insert(0, field.field_name)
            field = field.parent
        return ".".join(names)

    def check_keys(self, data):
        if isinstance(data, dict):
            for key in data:
                if key not in self.fields and key not in (self.known_keys or ()):
                    raise UnknownField(f"{self.path()}.{key}")

    def to_internal_value(self, data):
        self.check_keys(data)
        if isinstance(data, dict):
            data = {key: value for key, value in data.items() if value is not None}
        return super().to_internal_value(data)


class DaysOfWeekField(serializers.ListField):
    # 1 to 7 distinct days; every failure is one message on the list itself (not per item).

    child = serializers.ChoiceField(choices=DayOfWeek.choices)

    def __init__(self, **kwargs):
        super().__init__(min_length=1, max_length=7, **kwargs)

    def to_internal_value(self, data):
        if not isinstance(data, list) or not 1 <= len(data) <= 7:
            raise serializers.ValidationError("Must be a list of 1 to 7 days.")
        if any(day not in DayOfWeek.values for day in data):
            raise serializers.ValidationError(f"Each day must be one of: {', '.join(DayOfWeek.values)}.")
        if len(set(data)) != len(data):
            raise serializers.ValidationError("Days must not repeat.")
        return list(data)


OCCURRENCES_MESSAGE = f"Must be an integer from 1 to {max_occurrences()}."


@extend_schema_serializer(component_name="ClassRecurrenceEnds")
class RecurrenceEndsSerializer(StrictKeysSerializer):
    type = serializers.ChoiceField(
        choices=EndsType.choices, error_messages={"invalid_choice": _choices_message(EndsType)}
    )
    occurrences = StrictIntegerField(
        min_value=1,
        max_value=max_occurrences(),
        required=False,
        error_messages=_one_message(OCCURRENCES_MESSAGE, "invalid", "min_value", "max_value"),
    )


class RecurrenceEndSerializer(StrictKeysSerializer):
    # Where a series ends: `ends` ({type, occurrences}) and `endDate`, validated together, as the series' fields
    # (`ends_type`, `ends_date`, `ends_total_occurrences`). Required keys are checked here too, because a PATCH
    # validates partially (DRF then skips missing required fields at every level).

    ends_required = True

    def validate(self, attrs):
        ends = attrs.pop("ends", None)
        end_date = attrs.pop("endDate", None)
        errors = {}
        if ends is None and self.ends_required:
            raise serializers.ValidationError({"ends": ["This field is required."]})
        if ends is not None and "type" not in ends:
            raise serializers.ValidationError({"ends.type": ["This field is required."]})
        ends = ends or {"type": EndsType.NEVER}
        occurrences = ends.get("occurrences")
        if ends["type"] == EndsType.AFTER and occurrences is None:
            errors["ends.occurrences"] = ["Required when ends.type is `after`."]
        elif ends["type"] != EndsType.AFTER and occurrences is not None:
            errors["ends.occurrences"] = ["Only allowed when ends.type is `after`."]
        if ends["type"] == EndsType.UNTIL and end_date is None:
            errors["endDate"] = ["Required when ends.type is `until`."]
        elif ends["type"] != EndsType.UNTIL and end_date is not None:
            errors["endDate"] = ["Only allowed when ends.type is `until`."]
        if errors:
            raise serializers.ValidationError(errors)
        return {
            **attrs,
            "ends_type": ends["type"],
            "ends_date": end_date,
            "ends_total_occurrences": occurrences,
        }


@extend_schema_serializer(component_name="ClassRecurrenceCreate")
class RecurrenceCreateSerializer(RecurrenceEndSerializer):
    # A new series: its cadence (`frequency`, `interval`, `daysOfWeek` for weekly) and where it ends (never by
    # default).

    ends_required = False

    frequency = serializers.ChoiceField(
        choices=Frequency.choices, error_messages={"invalid_choice": _choices_message(Frequency)}
    )
    interval = StrictIntegerField(
        min_value=1,
        max_value=365,
        required=False,
        default=1,
        error_messages=_one_message("Must be an integer from 1 to 365.", "invalid", "min_value", "max_value"),
    )
    daysOfWeek = DaysOfWeekField(required=False)
    endDate = BoundedDateTimeField(required=False)
    ends = RecurrenceEndsSerializer(required=False)

    def validate(self, attrs):
        weekly = attrs["frequency"] == Frequency.WEEKLY
        if weekly and "daysOfWeek" not in attrs:
            raise serializers.ValidationError({"daysOfWeek": ["Required when frequency is `weekly`."]})
        if not weekly and "daysOfWeek" in attrs:
            raise serializers.ValidationError({"daysOfWeek": ["Only allowed when frequency is `weekly`."]})
        attrs["days_of_week"] = attrs.pop("daysOfWeek", [])
        return super().validate(attrs)


@extend_schema_serializer(component_name="ClassRecurrenceEndMove")
class RecurrenceEndMoveSerializer(RecurrenceEndSerializer):
    # The `recurrence` of a PATCH: only where the series ends may move; its cadence is refused by name.

    known_keys = CADENCE_KEYS
    endDate = BoundedDateTimeField(required=False)
    ends = RecurrenceEndsSerializer()

    def to_internal_value(self, data):
        self.check_keys(data)
        if isinstance(data, dict):
            self.fields["ends"].check_keys(data.get("ends"))
            for key in CADENCE_KEYS:
                if key in data:
                    raise ApiError(
                        f"`{key}` cannot change; only where the series ends can move.",
                        code="RECURRENCE_CADENCE_IMMUTABLE",
                        status=400,
                        details={"field": f"recurrence.{key}"},
                    )
            if self.parent.instance is not None and self.parent.instance.series_id is None:
                raise serializers.ValidationError("This class is not part of a series.")
        return super().to_internal_value(data)


@extend_schema_serializer(component_name="ClassCreate")
class ClassCreateSerializer(ClassWriteSerializer):
    recurrence = RecurrenceCreateSerializer(required=False, allow_null=True)  # null: a one-off class

    def to_internal_value(self, data):
        if isinstance(data, dict) and data.get("recurrence", ...) is None:  # null: a one-off class
            data = {key: value for key, value in data.items() if key != "recurrence"}
        try:
            return super().to_internal_value(data)
        except serializers.ValidationError as exc:
            # Only the recurrence failed: the class's own rules (endTime after startTime, the area in the club) are
            # reported with it, so that one answer names every field to fix.
            if set(exc.detail) == {"recurrence"}:
                rest = {key: value for key, value in data.items() if key != "recurrence"}
                class_only = ClassWriteSerializer(data=rest, context=self.context)
                if not class_only.is_valid():
                    exc.detail = {**class_only.errors, **exc.detail}
            raise

    def validate(self, attrs):
        attrs = super().validate(attrs)
        recurrence = attrs.get("recurrence")
        if recurrence and recurrence["ends_date"] is not None and recurrence["ends_date"] < attrs["start_time"]:
            raise serializers.ValidationError({"recurrence": {"endDate": ["Must not be before startTime."]}})
        return attrs


@extend_schema_serializer(component_name="ClassUpdate")
class ClassUpdateSerializer(ClassWriteSerializer):
    # Every class field optional (validated with `partial=True`), or `recurrence` alone with `?scope=all_future`
    # to move where the series ends (`instance`: the path's class).
    notifyCustomer = StrictBooleanField(required=False, default=False)
    recurrence = RecurrenceEndMoveSerializer(required=False, allow_null=True)  # null: absent

    def to_internal_value(self, data):
        if isinstance(data, dict) and data.get("recurrence", ...) is None:
            data = {key: value for key, value in data.items() if key != "recurrence"}
        if isinstance(data, dict) and "recurrence" in data:
            if self.context["scope"] != EditScope.ALL_FUTURE:
                raise ApiError(
                    "Changing `recurrence` requires `scope=all_future`.",
                    code="RECURRENCE_REQUIRES_ALL_FUTURE",
                    status=400,
                )
            alongside = sorted(key for key in data if key in CLASS_FIELD_NAMES)
            if alongside:
                raise ApiError(
                    "`recurrence` must be sent alone; update the class fields in a separate request.",
                    code="RECURRENCE_UPDATE_NOT_ALONE",
                    status=400,
                    details={"fields": alongside},
                )
        return super().to_internal_value(data)
