"""The admin sign-in: failed attempts are limited per client address and per account; passwords are validated."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db

LOGIN_URL = "/admin/login/?next=/admin/"
PASSWORD = "correct-horse-battery"
WRONG = "Please enter the correct username and password for a staff account."
LOCKED = "Too many failed sign-in attempts from this address or for this account. Try again in 15 minutes."


@pytest.fixture(autouse=True)
def _fast_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def owner(db):
    return get_user_model().objects.create_user("owner@example.com", "owner@example.com", PASSWORD, is_staff=True)


def sign_in(username, password, address="203.0.113.7"):
    client = Client(REMOTE_ADDR=address)
    response = client.post(LOGIN_URL, {"username": username, "password": password})
    return response, "_auth_user_id" in client.session


def test_account_is_locked_after_five_failures_even_with_the_right_password(owner):
    for attempt in range(5):
        response, signed_in = sign_in("owner@example.com", f"guess-{attempt}", address=f"198.51.100.{attempt}")
        assert response.status_code == 200 and WRONG in response.content.decode() and not signed_in
    response, signed_in = sign_in("owner@example.com", PASSWORD, address="192.0.2.99")
    assert response.status_code == 200 and not signed_in
    assert LOCKED in response.content.decode()
    response, signed_in = sign_in("OWNER@example.com ", PASSWORD, address="192.0.2.99")  # same account, other spelling
    assert LOCKED in response.content.decode() and not signed_in


def test_address_is_locked_after_ten_failures(owner):
    for attempt in range(10):
        response, _ = sign_in(f"nobody-{attempt}@example.com", "guess")
        assert WRONG in response.content.decode()
    response, signed_in = sign_in("owner@example.com", PASSWORD)
    assert LOCKED in response.content.decode() and not signed_in
    assert sign_in("owner@example.com", PASSWORD, address="198.51.100.1")[1]  # another address is unaffected


def test_a_successful_sign_in_clears_the_account_count(owner):
    for batch in range(2):
        for attempt in range(4):
            sign_in("owner@example.com", f"guess-{attempt}", address=f"198.51.100.{batch}{attempt}")
        response, signed_in = sign_in("owner@example.com", PASSWORD, address="192.0.2.1")
        assert response.status_code == 302 and signed_in


def test_admin_forms_apply_the_standard_password_validators(superuser_client):
    def add_user(username, password):
        return superuser_client.post(
            "/admin/auth/user/add/",
            {"username": username, "password1": password, "password2": password, "usable_password": "true"},
        )

    assert "This password is too common." in add_user("coach", "password123").content.decode()
    assert "This password is entirely numeric." in add_user("coach", "4815162342").content.decode()
    assert "The password is too similar to the username." in add_user("padelcoach", "padelcoach1").content.decode()
    assert not get_user_model().objects.filter(username__in=["coach", "padelcoach"]).exists()
    assert add_user("coach", PASSWORD).status_code == 302


def test_cache_outage_lets_sign_in_through_with_a_warning(owner, monkeypatch, caplog):
    class BrokenCache:
        def __getattr__(self, name):
            def fail(*args, **kwargs):
                raise ConnectionError("cache down")

            return fail

    monkeypatch.setattr("apps.organizations.admin_login.cache", BrokenCache())
    assert WRONG in sign_in("owner@example.com", "guess")[0].content.decode()
    assert sign_in("owner@example.com", PASSWORD)[1]
    assert "Admin sign-in throttle unavailable" in caplog.text
