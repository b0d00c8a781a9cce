import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from apps.billing.models import Plan
from apps.pricing.models import PricingRule
from tests.factories import MembershipFactory

MADRID = ZoneInfo("Europe/Madrid")
RULES = "/v1/platform/pricing-rules"
QUOTE = "/v1/platform/pricing-rules/quote"


def madrid(text: str) -> str:
    """`2030-06-10 17:30` on the Madrid wall clock as an ISO date-time with its offset."""
    return dt.datetime.fromisoformat(text).replace(tzinfo=MADRID).isoformat()


@pytest.fixture
def make_rule(organization):
    def make(**fields):
        fields.setdefault("name", "Rule")
        fields.setdefault("adjustment_type", "set_hourly_rate")
        fields.setdefault("value", 30)
        return PricingRule.objects.create(organization=organization, **fields)

    return make


@pytest.fixture
def plan(organization):
    return Plan.objects.create(organization=organization, name="Gold", price=50)


@pytest.fixture
def make_membership(organization, plan):
    def make(contact, plan_=None, **fields):
        fields.setdefault("start_date", dt.date(2030, 1, 1))
        return MembershipFactory(organization=organization, contact=contact, plan=plan_ or plan, **fields)

    return make


@pytest.fixture
def quote(api, area):
    """quote(start, end, **params) -> the response of GET /pricing-rules/quote for `area` (Madrid wall times)."""

    def get(start, end, client=None, **params):
        query = {"areaId": area.id, "startTime": madrid(start), "endTime": madrid(end), **params}
        return (client or api).get(QUOTE, query)

    return get
