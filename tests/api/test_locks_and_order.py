"""Plan and organization locks and the order in which the checks run."""

import pytest
from rest_framework.test import APIClient

from apps.organizations.choices import OrganizationStatus, Plan

from .conftest import PROBES, bearer

pytestmark = pytest.mark.urls("tests.api.urls_for_tests")

ME = "/v1/platform/me"


def set_plan(organization, plan=None, status=None):
    if plan:
        organization.plan = plan
    if status:
        organization.status = status
    organization.save()


@pytest.mark.parametrize("plan", [Plan.FREE, Plan.TRIAL])
def test_free_and_trial_are_locked_also_for_existing_keys(issue_key, organization, plan, contact):
    _, token = issue_key()
    client = bearer(token)
    assert client.get(ME).status_code == 200
    set_plan(organization, plan=plan)  # downgrade: the key existed before
    for response in (client.get(ME), client.get(PROBES), client.get(f"{PROBES}/{contact.id}")):
        assert response.status_code == 403
        body = response.json()
        assert body["code"] == "PLAN_FEATURE_LOCKED"
        assert body["error"] == "Forbidden"
        assert "requiredScope" not in body


@pytest.mark.parametrize("plan", [Plan.STARTER, Plan.PRO, Plan.ENTERPRISE])
def test_paid_plans_are_open(issue_key, organization, plan):
    _, token = issue_key()
    set_plan(organization, plan=plan)
    assert bearer(token).get(ME).status_code == 200


def test_inactive_organization(issue_key, organization):
    _, token = issue_key()
    set_plan(organization, status=OrganizationStatus.INACTIVE)
    response = bearer(token).get(ME)
    assert response.status_code == 403
    assert response.json()["code"] == "ORGANIZATION_NOT_ACTIVE"


def test_unknown_route_before_authentication(db):
    response = APIClient().get("/v1/platform/nothing-here")
    assert response.status_code == 404
    assert response.json()["code"] == "NOT_FOUND"


def test_authentication_before_lock(organization):
    set_plan(organization, plan=Plan.FREE)
    response = bearer("gpk_abcdefabcdef_nope").get(ME)
    assert response.status_code == 401


def test_lock_before_method(issue_key, organization):
    _, token = issue_key()
    set_plan(organization, plan=Plan.TRIAL)
    response = bearer(token).delete(ME)
    assert response.status_code == 403
    assert response.json()["code"] == "PLAN_FEATURE_LOCKED"


def test_method_before_scope(issue_key):
    _, token = issue_key([])
    response = bearer(token).delete(PROBES)
    assert response.status_code == 405
    assert response.json()["code"] == "METHOD_NOT_ALLOWED"
    assert response["Allow"] == "GET, POST, HEAD"


def test_scope_before_rate_limit_and_rate_limit_before_path_object(issue_key, settings):
    settings.RATE_LIMIT_MULTIPLIER = 0.03  # general bucket: 3 per window
    _, token = issue_key("products:read")
    client = bearer(token)
    for _ in range(3):
        assert client.get(PROBES).status_code == 200
    assert client.get(PROBES).status_code == 429
    scope_refused = client.post(PROBES, {"firstName": "x"}, format="json")
    assert scope_refused.status_code == 403
    assert scope_refused.json()["requiredScope"] == "products:write"
    limited = client.get(f"{PROBES}/123456789")
    assert limited.status_code == 429


def test_path_object_before_media_type(api, contact, other_organization):
    missing = api.post(f"{PROBES}/123456789/cancel", "x=1", content_type="text/plain")
    assert missing.status_code == 404
    assert missing.json()["code"] == "NOT_FOUND"
    existing = api.post(f"{PROBES}/{contact.id}/cancel", "x=1", content_type="text/plain")
    assert existing.status_code == 415
    patch_missing = api.patch(f"{PROBES}/123456789", "x", content_type="text/plain")
    assert patch_missing.status_code == 404


def test_media_type_before_business_rules(api):
    response = api.post(PROBES, "fail=true", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415
