"""Input validation of class writes (camelCase bodies mapped to model fields) and the documented response shapes."""

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from apps.api.exceptions import ApiError, FieldNotWritable, UnknownField, ValidationFailed
from apps.api.fields import (
    BoundedDateTimeField,
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

RECURRENCE_KEYS = ("frequency", "interval", "daysOfWeek", "endDate", "ends")
CADENCE_KEYS = ("frequency", "interval", "daysOfWeek")
ENDS_KEYS = ("type", "occurrences")


class ClassWriteSerializer(serializers.Serializer):
    """The spec's Class create body (every field optional on update, `partial=True`)."""

    clubId = OrganizationObjectField(model=Club, source="club")
    name = StrictCharField(max_length=100)
    startTime = BoundedDateTimeField(source="start_time")
    endTime = BoundedDateTimeField(source="end_time")
    areaId = OrganizationObjectField(model=Area, source="area", allow_null=True, required=False)
    classTypeId = OrganizationObjectField(model=ClassType, source="class_type", allow_null=True, required=False)
    instructorIds = serializers.ListField(
        child=StrictIntegerField(min_value=1), max_length=20, required=False, source="instructors"
    )
    description = StrictCharField(max_length=5000, allow_null=True, allow_blank=True, required=False)
    priceBeforeTax = StrictDecimalField(
        max_digits=10, decimal_places=2, min_value=0, allow_null=True, required=False, source="price_before_tax"
    )
    isFree = StrictBooleanField(required=False, source="is_free")
    maxCapacity = StrictIntegerField(min_value=1, allow_null=True, required=False, source="max_capacity")
    visibility = serializers.ChoiceField(choices=Visibility.choices, required=False)
    sport = StrictCharField(max_length=60, allow_null=True, allow_blank=True, required=False)
    color = StrictRegexField(r"^#[0-9a-fA-F]{6}$", allow_null=True, required=False)
    allowWaitlist = StrictBooleanField(required=False, source="allow_waitlist")

    def validate_instructorIds(self, value):
        ids = list(dict.fromkeys(value))
        organization = self.context["request"].organization
        found = {i.pk: i for i in Instructor.objects.filter(organization=organization, id__in=ids)}
        missing = [i for i in ids if i not in found]
        if missing:
            raise serializers.ValidationError(
                f"No instructor with id {', '.join(map(str, missing))} exists in this organization."
            )
        return [found[i] for i in ids]

    def validate(self, attrs):
        start, end = attrs.get("start_time"), attrs.get("end_time")
        if start is not None and end is not None and end <= start:
            raise serializers.ValidationError({"endTime": ["Must be after startTime."]})
        area, club = attrs.get("area"), attrs.get("club")
        if area is not None and club is not None and area.club_id != club.pk:
            raise serializers.ValidationError({"areaId": ["The area does not belong to this club."]})
        return attrs


class ClassUpdateSerializer(ClassWriteSerializer):
    notifyCustomer = StrictBooleanField(required=False, default=False, source="notify_customer")


CLASS_FIELD_NAMES = tuple(ClassWriteSerializer().fields)


@extend_schema_serializer(component_name="ClassCancel")
class CancelSerializer(serializers.Serializer):
    reason = StrictCharField(max_length=2000, allow_null=True, allow_blank=True, required=False)
    notifyCustomer = StrictBooleanField(required=False, default=False, source="notify_customer")


# --- raw-body checks the serializers cannot express -----------------------------------------------------------


def require_object(body):
    if not isinstance(body, dict):
        raise ValidationFailed({"nonFieldErrors": ["The body must be a JSON object."]})
    return body


def reject_price(body: dict):
    if "price" in body:
        raise FieldNotWritable("price", "`price` is computed (tax-inclusive); send `priceBeforeTax` instead.")


def _check_keys(recurrence, ends):
    for key in recurrence:
        if key not in RECURRENCE_KEYS:
            raise UnknownField(f"recurrence.{key}")
    if isinstance(ends, dict):
        for key in ends:
            if key not in ENDS_KEYS:
                raise UnknownField(f"recurrence.ends.{key}")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_ends(recurrence: dict, errors: dict, *, required: bool) -> dict:
    """`ends`/`endDate` as model fields; errors collected under dotted names."""
    ends = recurrence.get("ends")
    if ends is None:
        if required:
            errors["recurrence.ends"] = ["This field is required."]
            return {}
        ends_type = EndsType.NEVER
        ends = {}
    elif not isinstance(ends, dict):
        errors["recurrence.ends"] = ["Must be an object."]
        return {}
    else:
        ends_type = ends.get("type")
        if ends_type is None:
            errors["recurrence.ends.type"] = ["This field is required."]
            return {}
        if ends_type not in EndsType.values:
            errors["recurrence.ends.type"] = [f"Must be one of: {', '.join(EndsType.values)}."]
            return {}
    result = {"ends_type": ends_type, "ends_date": None, "ends_total_occurrences": None}
    occurrences = ends.get("occurrences")
    if ends_type == EndsType.AFTER:
        if occurrences is None:
            errors["recurrence.ends.occurrences"] = ["Required when ends.type is `after`."]
        elif not _is_int(occurrences) or not 1 <= occurrences <= max_occurrences():
            errors["recurrence.ends.occurrences"] = [f"Must be an integer from 1 to {max_occurrences()}."]
        else:
            result["ends_total_occurrences"] = occurrences
    elif occurrences is not None:
        errors["recurrence.ends.occurrences"] = ["Only allowed when ends.type is `after`."]
    end_date = recurrence.get("endDate")
    if ends_type == EndsType.UNTIL:
        if end_date is None:
            errors["recurrence.endDate"] = ["Required when ends.type is `until`."]
        else:
            try:
                result["ends_date"] = BoundedDateTimeField().run_validation(end_date)
            except serializers.ValidationError as exc:
                errors["recurrence.endDate"] = [str(m) for m in exc.detail]
    elif end_date is not None:
        errors["recurrence.endDate"] = ["Only allowed when ends.type is `until`."]
    return result


def parse_create_recurrence(raw) -> tuple[dict | None, dict]:
    """(recurrence as model fields, field errors). Unknown keys raise 400 UNKNOWN_FIELD at once."""
    if raw is None:
        return None, {}
    if not isinstance(raw, dict):
        return None, {"recurrence": ["Must be an object."]}
    _check_keys(raw, raw.get("ends"))
    errors: dict[str, list[str]] = {}
    frequency = raw.get("frequency")
    if frequency is None:
        errors["recurrence.frequency"] = ["This field is required."]
    elif frequency not in Frequency.values:
        errors["recurrence.frequency"] = [f"Must be one of: {', '.join(Frequency.values)}."]
    interval = raw.get("interval", 1)
    if interval is None:
        interval = 1
    if not _is_int(interval) or not 1 <= interval <= 365:
        errors["recurrence.interval"] = ["Must be an integer from 1 to 365."]
    days = raw.get("daysOfWeek")
    if frequency == Frequency.WEEKLY:
        if days is None:
            errors["recurrence.daysOfWeek"] = ["Required when frequency is `weekly`."]
        elif not isinstance(days, list) or not 1 <= len(days) <= 7:
            errors["recurrence.daysOfWeek"] = ["Must be a list of 1 to 7 days."]
        elif any(d not in DayOfWeek.values for d in days):
            errors["recurrence.daysOfWeek"] = [f"Each day must be one of: {', '.join(DayOfWeek.values)}."]
        elif len(set(days)) != len(days):
            errors["recurrence.daysOfWeek"] = ["Days must not repeat."]
    elif days is not None:
        errors["recurrence.daysOfWeek"] = ["Only allowed when frequency is `weekly`."]
    ends = _parse_ends(raw, errors, required=False)
    return {
        "frequency": frequency,
        "interval": interval,
        "days_of_week": list(days) if frequency == Frequency.WEEKLY and isinstance(days, list) else [],
        **ends,
    }, errors


def parse_end_move(raw, body: dict, *, scope: str, is_series: bool) -> dict:
    """The `recurrence` of a PATCH: only the end may move. Raises its error codes in a fixed order."""
    if scope != EditScope.ALL_FUTURE:
        raise ApiError(
            "Changing `recurrence` requires `scope=all_future`.", code="RECURRENCE_REQUIRES_ALL_FUTURE", status=400
        )
    alongside = sorted(k for k in body if k in CLASS_FIELD_NAMES)
    if alongside:
        raise ApiError(
            "`recurrence` must be sent alone; update the class fields in a separate request.",
            code="RECURRENCE_UPDATE_NOT_ALONE",
            status=400,
            details={"fields": alongside},
        )
    if not isinstance(raw, dict):
        raise ValidationFailed({"recurrence": ["Must be an object."]})
    _check_keys(raw, raw.get("ends"))
    for key in CADENCE_KEYS:
        if key in raw:
            raise ApiError(
                f"`{key}` cannot change; only where the series ends can move.",
                code="RECURRENCE_CADENCE_IMMUTABLE",
                status=400,
                details={"field": f"recurrence.{key}"},
            )
    if not is_series:
        raise ValidationFailed({"recurrence": ["This class is not part of a series."]})
    errors: dict[str, list[str]] = {}
    ends = _parse_ends(raw, errors, required=True)
    if errors:
        raise ValidationFailed(errors)
    return ends


# The recurrence bodies below document what `parse_create_recurrence`/`parse_end_move` validate by hand (their
# rules depend on each other: `daysOfWeek` only for weekly, `endDate` only for `until`); bounds come from the same
# settings as the validation.
class ClassRecurrenceEnds(serializers.Serializer):
    type = serializers.ChoiceField(choices=EndsType.choices)
    occurrences = serializers.IntegerField(min_value=1, max_value=max_occurrences(), required=False)


@extend_schema_serializer(component_name="ClassRecurrenceCreate")
class RecurrenceCreateDoc(serializers.Serializer):
    frequency = serializers.ChoiceField(choices=Frequency.choices)
    interval = serializers.IntegerField(min_value=1, max_value=365, required=False, default=1)
    daysOfWeek = serializers.ListField(
        child=serializers.ChoiceField(choices=DayOfWeek.choices), min_length=1, max_length=7, required=False
    )
    endDate = serializers.DateTimeField(required=False)
    ends = ClassRecurrenceEnds(required=False)


@extend_schema_serializer(component_name="ClassRecurrenceEndMove")
class RecurrenceEndMoveDoc(serializers.Serializer):
    endDate = serializers.DateTimeField(required=False)
    ends = ClassRecurrenceEnds()


@extend_schema_serializer(component_name="ClassCreate")
class ClassCreateDoc(ClassWriteSerializer):
    recurrence = RecurrenceCreateDoc(required=False)


@extend_schema_serializer(component_name="ClassUpdate")
class ClassUpdateDoc(ClassUpdateSerializer):
    recurrence = RecurrenceEndMoveDoc(required=False)
