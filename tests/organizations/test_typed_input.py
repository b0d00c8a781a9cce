"""Typed input (decisions/foundation-api.md #21): the organization settings PATCH refuses a value of the wrong JSON
type with a 400 naming the field, and changes nothing."""

import pytest

from apps.organizations.models import Organization
from tests.typed_input import STRING, assert_rejected

URL = "/v1/platform/organization"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"offeredLanguages": ["en", 5]}, "offeredLanguages.1"),
        ({"offeredLanguages": ["en", True]}, "offeredLanguages.1"),
        ({"bookingCardNames": {"area": 5}}, "bookingCardNames.area"),
        ({"bookingCardNames": {"class": False}}, "bookingCardNames.class"),
    ],
)
def test_settings_patch_refuses_non_strings(client_for, organization, body, field):
    before = Organization.objects.values().get(pk=organization.pk)
    response = client_for("organization:write").patch(URL, body, format="json")
    assert_rejected(response, field, STRING)
    assert Organization.objects.values().get(pk=organization.pk) == before
