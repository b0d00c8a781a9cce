"""Request bodies of revenue accounts, plan categories and plans (the spec's Plan create / update body)."""

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from apps.api.fields import (
    InputSerializer,
    OrganizationObjectField,
    StrictBooleanField,
    StrictCharField,
    StrictDecimalField,
    StrictIntegerField,
)
from apps.classes.choices import Visibility
from apps.classes.models import ClassType
from apps.clubs.models import AreaType, Club
from apps.instructors.models import InstructorType

from ..choices import BillingFrequency, CustomPeriodUnit, SessionUnit, ValidForScope
from ..models import PlanCategory, RevenueAccount

# Limits of the spec's Plan body.
PLAN_NAME_MAX = 120
PLAN_DESCRIPTION_MAX = 5000
PLAN_SPORTS_MAX = 50
PLAN_FEATURES_MAX = 100
RENEWAL_DAYS_MAX = 60
# Gaps filled in docs/decisions/billing.md.
SPORT_MAX = 60
FEATURE_MAX = 200
VALID_FOR_IDS_MAX = 200
MONEY = {"max_digits": 10, "decimal_places": 2, "min_value": 0}

VALID_FOR_TYPES = (
    ("classTypes", ClassType),
    ("areaTypes", AreaType),
    ("instructorTypes", InstructorType),
)


@extend_schema_serializer(component_name="RevenueAccountInput")
class RevenueAccountInputSerializer(InputSerializer):
    name = StrictCharField(max_length=120)
    code = StrictCharField(max_length=40, required=False, allow_null=True, allow_blank=True)
    description = StrictCharField(max_length=5000, required=False, allow_null=True, allow_blank=True)
    isDefault = StrictBooleanField(required=False, help_text="`true` makes this the default sales account.")
    isActive = StrictBooleanField(required=False, help_text="The default sales account cannot be deactivated (409).")


@extend_schema_serializer(component_name="PlanCategoryInput")
class PlanCategoryInputSerializer(InputSerializer):
    name = StrictCharField(max_length=120)
    description = StrictCharField(max_length=5000, required=False, allow_null=True, allow_blank=True)
    position = StrictIntegerField(required=False, min_value=0)


def _id_list(help_text):
    return serializers.ListField(
        child=StrictIntegerField(min_value=1), max_length=VALID_FOR_IDS_MAX, required=False, help_text=help_text
    )


@extend_schema_serializer(component_name="PlanValidForInput")
class ValidForSerializer(serializers.Serializer):
    """Replaces the stored object; an omitted list is empty. Type ids must be the organization's own."""

    scopes = serializers.ListField(
        child=serializers.ChoiceField(choices=ValidForScope.choices), max_length=3, required=False
    )
    classTypes = _id_list("Class type ids; empty covers every class type.")
    areaTypes = _id_list("Area type ids; empty covers every area type.")
    instructorTypes = _id_list("Instructor type ids; empty covers every instructor type.")

    def validate(self, attrs):
        organization = self.context["request"].organization
        errors = {}
        for name, model in VALID_FOR_TYPES:
            ids = list(dict.fromkeys(attrs.get(name) or []))
            attrs[name] = ids
            if ids:
                known = set(model.objects.filter(organization=organization, pk__in=ids).values_list("pk", flat=True))
                unknown = [pk for pk in ids if pk not in known]
                if unknown:
                    errors[name] = [f"No object with id {pk} exists in this organization." for pk in unknown]
        if errors:
            raise serializers.ValidationError(errors)
        attrs["scopes"] = list(dict.fromkeys(attrs.get("scopes") or []))
        return {"scopes": attrs["scopes"], **{name: attrs[name] for name, _ in VALID_FOR_TYPES}}


def _active_account(account):
    if account is not None and not account.is_active:
        raise serializers.ValidationError("The revenue account is inactive.")
    return account


@extend_schema_serializer(component_name="PlanInput")
class PlanInputSerializer(InputSerializer):
    """The spec's Plan create / update body: `name` and `price` are required on create, every field is optional on
    update (validated with `partial=True`), with the same constraints."""

    name = StrictCharField(max_length=PLAN_NAME_MAX)
    description = StrictCharField(max_length=PLAN_DESCRIPTION_MAX, required=False, allow_null=True, allow_blank=True)
    clubId = OrganizationObjectField(model=Club, required=False, allow_null=True)
    planCategoryId = OrganizationObjectField(
        model=PlanCategory,
        required=False,
        allow_null=True,
        help_text="null removes the plan from every category.",
    )
    revenueAccountId = OrganizationObjectField(
        model=RevenueAccount,
        required=False,
        allow_null=True,
        help_text="Omitted or null: sales post to the organization's default account resolved at sale time.",
    )
    price = StrictDecimalField(**MONEY)
    signupFee = StrictDecimalField(required=False, **MONEY)
    billingFrequency = serializers.ChoiceField(choices=BillingFrequency.choices, required=False)
    customPeriod = StrictIntegerField(min_value=1, required=False, allow_null=True, help_text="With `custom` only.")
    customPeriodUnit = serializers.ChoiceField(choices=CustomPeriodUnit.choices, required=False, allow_null=True)
    isActive = StrictBooleanField(required=False)
    maxUses = StrictIntegerField(min_value=0, required=False, allow_null=True)
    sessionUnit = serializers.ChoiceField(choices=SessionUnit.choices, required=False, allow_null=True)
    validityPeriod = StrictIntegerField(min_value=1, required=False, allow_null=True, help_text="Days.")
    autoRenews = StrictBooleanField(required=False)
    renewalDaysInAdvance = StrictIntegerField(min_value=0, max_value=RENEWAL_DAYS_MAX, required=False)
    requirePaymentUpfront = StrictBooleanField(required=False)
    sports = serializers.ListField(
        child=StrictCharField(max_length=SPORT_MAX), max_length=PLAN_SPORTS_MAX, required=False
    )
    features = serializers.ListField(
        child=StrictCharField(max_length=FEATURE_MAX), max_length=PLAN_FEATURES_MAX, required=False
    )
    visibility = serializers.ChoiceField(choices=Visibility.choices, required=False)
    validFor = ValidForSerializer(required=False)

    def validate_revenueAccountId(self, account):
        return _active_account(account)
