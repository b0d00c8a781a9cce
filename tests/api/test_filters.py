"""Shared query-parameter parsing, seen through a real list endpoint."""

import pytest


@pytest.mark.parametrize("value", ["2031-13-01", "2031-02-30", "tomorrow", "2031-01-01T10:00:00"])
def test_impossible_or_naive_dates_are_400(api, value):
    response = api.get("/v1/platform/classes", {"startDate": value})
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert "startDate" in response.json()["details"]["fields"]


def test_end_before_start_is_400(api):
    response = api.get("/v1/platform/classes", {"startDate": "2031-01-02", "endDate": "2031-01-01"})
    assert response.status_code == 400
    assert "endDate" in response.json()["details"]["fields"]


def test_same_day_window_is_valid(api):
    response = api.get("/v1/platform/classes", {"startDate": "2031-01-01", "endDate": "2031-01-01"})
    assert response.status_code == 200
