"""No API key is minted for an inactive organization: not by the admin, the command, or the model itself."""

import io

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError

from apps.organizations.models import ApiKey

pytestmark = pytest.mark.django_db

MESSAGE = "Padel Palace is inactive. Reactivate the organization before creating API keys."


@pytest.fixture
def inactive(organization):
    organization.status = "inactive"
    organization.save()
    return organization


def test_admin_form_refuses(org_admin, inactive):
    response = org_admin.post(
        "/admin/organizations/apikey/add/",
        {"organization": inactive.pk, "name": "Zapier", "scopes": ["classes:read"], "_save": "Save"},
    )
    assert response.status_code == 200
    assert MESSAGE in response.content.decode()
    assert not ApiKey.objects.exists()


def test_command_refuses(inactive):
    with pytest.raises(CommandError, match=MESSAGE):
        call_command("create_api_key", "--organization=padel-palace", "--name=K", "--scopes=*", stdout=io.StringIO())
    assert not ApiKey.objects.exists()


def test_model_refuses(inactive):
    with pytest.raises(ValidationError) as raised:
        ApiKey.issue(organization=inactive, name="K", scopes=["*"])
    assert raised.value.messages == [MESSAGE]
    assert not ApiKey.objects.exists()


def test_reactivated_organization_gets_keys(org_admin, inactive):
    inactive.status = "active"
    inactive.save()
    out = io.StringIO()
    call_command("create_api_key", "--organization=padel-palace", "--name=K", "--scopes=*", stdout=out)
    assert ApiKey.objects.count() == 1
