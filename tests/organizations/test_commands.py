"""Management commands: create_organization, create_api_key, revoke_api_key, create_user, seed_demo."""

import datetime
import importlib
import io
import types
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from rest_framework.test import APIClient

from apps.organizations.management.commands import create_organization, seed_demo
from apps.organizations.management.commands.seed_demo import DEMO_APPS
from apps.organizations.models import ApiKey, Organization, StaffMembership, hash_token

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def me(token):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client.get("/v1/platform/me")


class TestCreateOrganization:
    def test_creates_with_every_option(self):
        out = run(
            "create_organization",
            "--slug=acme",
            "--name=Acme Gym",
            "--currency=USD",
            "--tax-rate=8.5",
            "--timezone=America/New_York",
            "--language=es",
            "--plan=starter",
            "--status=inactive",
        )
        org = Organization.objects.get(slug="acme")
        assert (org.name, org.currency, org.default_tax_rate, org.timezone) == (
            "Acme Gym",
            "USD",
            Decimal("8.50"),
            "America/New_York",
        )
        assert (org.default_language, org.plan, org.status) == ("es", "starter", "inactive")
        assert "Created organization acme" in out

    def test_defaults_for_a_new_organization(self):
        run("create_organization", "--slug=plain", "--name=Plain")
        org = Organization.objects.get(slug="plain")
        assert (org.currency, org.plan, org.status) == ("EUR", "pro", "active")

    def test_rerun_updates_only_given_fields(self):
        run("create_organization", "--slug=acme", "--name=Acme", "--currency=USD", "--timezone=Europe/Madrid")
        out = run("create_organization", "--slug=acme", "--plan=free")
        org = Organization.objects.get(slug="acme")
        assert (org.name, org.currency, org.timezone, org.plan) == ("Acme", "USD", "Europe/Madrid", "free")
        assert Organization.objects.count() == 1
        assert "Updated organization acme" in out

    @pytest.mark.parametrize(
        "option, message",
        [
            ("--currency=eur", "Invalid currency"),
            ("--currency=EURO", "Invalid currency"),
            ("--timezone=Mars/Olympus", "Unknown time zone"),
            ("--tax-rate=101", "Invalid tax rate"),
            ("--tax-rate=-1", "Invalid tax rate"),
            ("--tax-rate=abc", "Invalid tax rate"),
            ("--language=English!", "Invalid language"),
            ("--plan=platinum", "invalid choice"),
        ],
    )
    def test_bad_input_is_an_error(self, option, message):
        with pytest.raises(CommandError, match=message):
            run("create_organization", "--slug=acme", "--name=Acme", option)
        assert not Organization.objects.exists()

    def test_new_organization_needs_a_name(self):
        with pytest.raises(CommandError, match="needs a name"):
            run("create_organization", "--slug=acme")

    def test_error_goes_to_stderr_with_non_zero_exit(self, capsys):
        with pytest.raises(SystemExit) as exit_info:
            create_organization.Command().run_from_argv(
                ["manage.py", "create_organization", "--slug=acme", "--name=Acme", "--currency=eur"]
            )
        assert exit_info.value.code != 0
        assert "Invalid currency" in capsys.readouterr().err


class TestCreateApiKey:
    def test_token_alone_on_last_line_and_it_works(self, organization):
        out = run(
            "create_api_key", "--organization=padel-palace", "--name=Zapier", "--scopes=bookings:write classes:read"
        )
        token = out.strip().splitlines()[-1]
        key = ApiKey.objects.get()
        assert key.token_hash == hash_token(token)
        assert key.scopes == ["classes:read", "bookings:write"] and key.expires_at is None
        response = me(token)
        assert response.status_code == 200
        assert response.json()["scopes"] == ["classes:read", "bookings:write"]

    def test_wildcard_and_description(self, organization):
        out = run("create_api_key", "--organization=padel-palace", "--name=All", "--scopes=*", "--description=Ops")
        key = ApiKey.objects.get()
        assert (key.scopes, key.description) == (["*"], "Ops")
        assert me(out.strip().splitlines()[-1]).json()["fullAccess"] is True

    def test_expires_at_end_of_day_on_organization_clock(self, organization):
        run(
            "create_api_key", "--organization=padel-palace", "--name=K", "--scopes=classes:read", "--expires=2031-01-31"
        )
        assert ApiKey.objects.get().expires_at == datetime.datetime(
            2031, 1, 31, 23, 59, 59, 999999, tzinfo=ZoneInfo("Europe/Madrid")
        )

    @pytest.mark.parametrize(
        "args, message",
        [
            (["--scopes=classes:read clubs:write"], "Unknown scope"),
            (["--scopes= "], "at least one scope"),
            (["--scopes=classes:read", "--expires=31/01/2031"], "Invalid date"),
            (["--scopes=classes:read", "--expires=2020-01-01"], "cannot be in the past"),
        ],
    )
    def test_bad_input_is_an_error(self, organization, args, message):
        with pytest.raises(CommandError, match=message):
            run("create_api_key", "--organization=padel-palace", "--name=K", *args)
        assert not ApiKey.objects.exists()

    def test_unknown_organization(self, db):
        with pytest.raises(CommandError, match="No organization with slug 'nope'"):
            run("create_api_key", "--organization=nope", "--name=K", "--scopes=*")

    @pytest.mark.parametrize("plan", ["free", "trial"])
    def test_locked_plans_cannot_get_keys(self, organization, plan):
        organization.plan = plan
        organization.save()
        with pytest.raises(CommandError, match="not available on the"):
            run("create_api_key", "--organization=padel-palace", "--name=K", "--scopes=*")
        assert not ApiKey.objects.exists()


class TestRevokeApiKey:
    def test_revokes_every_key_with_the_name(self, organization, other_organization):
        tokens = [ApiKey.issue(organization=organization, name="Zapier", scopes=["*"])[1] for _ in range(2)]
        _, other = ApiKey.issue(organization=organization, name="Other", scopes=["*"])
        _, foreign = ApiKey.issue(organization=other_organization, name="Zapier", scopes=["*"])
        out = run("revoke_api_key", "--organization=padel-palace", "--name=Zapier")
        assert "Revoked 2 API keys" in out
        assert [me(t).status_code for t in tokens] == [401, 401]
        assert me(other).status_code == 200 and me(foreign).status_code == 200

    def test_error_when_none_left(self, organization):
        ApiKey.issue(organization=organization, name="Zapier", scopes=["*"])
        run("revoke_api_key", "--organization=padel-palace", "--name=Zapier")
        with pytest.raises(CommandError, match="No unrevoked API key named 'Zapier'"):
            run("revoke_api_key", "--organization=padel-palace", "--name=Zapier")


class TestCreateUser:
    def test_created_user_signs_in_to_the_admin_and_manages_keys(self, organization):
        out = run(
            "create_user",
            "--organization=padel-palace",
            "--email=Boss@Example.com",
            "--password=s3cret-pass",
            "--role=admin",
        )
        assert "Created user boss@example.com as admin of padel-palace" in out
        user = get_user_model().objects.get(username="boss@example.com")
        assert user.is_staff and not user.is_superuser and user.email == "boss@example.com"
        membership = StaffMembership.objects.get(user=user)
        assert (membership.organization, membership.role) == (organization, "admin")

        client = Client()
        response = client.post(
            "/admin/login/?next=/admin/", {"username": "boss@example.com", "password": "s3cret-pass"}
        )
        assert response.status_code == 302 and response["Location"] == "/admin/"
        assert client.get("/admin/organizations/apikey/").status_code == 200

    def test_rerun_updates_role_and_password(self, organization):
        run(
            "create_user",
            "--organization=padel-palace",
            "--email=a@example.com",
            "--password=first-pass",
            "--role=admin",
        )
        out = run(
            "create_user",
            "--organization=padel-palace",
            "--email=a@example.com",
            "--password=second-pass",
            "--role=staff",
            "--full-settings-management",
        )
        assert "Updated user a@example.com" in out
        user = get_user_model().objects.get(username="a@example.com")
        assert user.check_password("second-pass")
        membership = StaffMembership.objects.get(user=user)
        assert (membership.role, membership.full_settings_management) == ("staff", True)
        assert get_user_model().objects.count() == 1

    def test_manager_cannot_open_key_admin(self, organization):
        run(
            "create_user",
            "--organization=padel-palace",
            "--email=m@example.com",
            "--password=manager-pass",
            "--role=manager",
            "--full-settings-management",
        )
        client = Client()
        assert client.login(username="m@example.com", password="manager-pass")
        assert client.get("/admin/organizations/apikey/").status_code == 403

    @pytest.mark.parametrize(
        "args, message",
        [
            (["--email=not-an-email", "--password=long-enough", "--role=admin"], "valid email"),
            (["--email=a@example.com", "--password=short", "--role=admin"], "too short"),
            (["--email=a@example.com", "--password=long-enough", "--role=owner"], "invalid choice"),
        ],
    )
    def test_bad_input_is_an_error(self, organization, args, message):
        with pytest.raises(CommandError, match=message):
            run("create_user", "--organization=padel-palace", *args)
        assert not get_user_model().objects.exists()

    def test_unknown_organization(self, db):
        with pytest.raises(CommandError, match="No organization"):
            run("create_user", "--organization=nope", "--email=a@example.com", "--password=long-enough", "--role=admin")


class TestSeedDemo:
    @pytest.fixture(autouse=True)
    def _development_configuration(self, settings):
        settings.DEBUG = True  # with DEBUG off seed_demo needs --allow-production (tests/deployment)

    def test_idempotent_with_a_fresh_key_each_run(self):
        first = run("seed_demo")
        second = run("seed_demo")
        assert first.strip().splitlines()[-1].startswith("Demo API key: gpk_")
        token1 = first.strip().splitlines()[-1].removeprefix("Demo API key: ")
        token2 = second.strip().splitlines()[-1].removeprefix("Demo API key: ")
        assert token1 != token2

        org = Organization.objects.get(slug="demo")
        assert (org.slug, org.name, org.currency, org.default_tax_rate, org.timezone, org.plan) == (
            "demo",
            "Demo Sports Club",
            "EUR",
            Decimal("21.00"),
            "Europe/Madrid",
            "pro",
        )
        assert get_user_model().objects.filter(username="demo@example.com").count() == 1
        assert StaffMembership.objects.get(organization=org).role == "admin"
        keys = ApiKey.objects.filter(name="Demo key")
        assert keys.count() == 2 and keys.filter(revoked_at__isnull=True).count() == 1
        assert me(token1).status_code == 401
        response = me(token2)
        assert response.status_code == 200 and response.json()["fullAccess"] is True

        client = Client()
        assert client.login(username="demo@example.com", password="demo-password")
        assert client.get("/admin/organizations/apikey/").status_code == 200

    def test_restores_demo_settings_after_a_plan_change(self):
        run("seed_demo")
        Organization.objects.filter(slug="demo").update(plan="free")
        token = run("seed_demo").strip().splitlines()[-1].removeprefix("Demo API key: ")
        assert me(token).status_code == 200

    def test_calls_each_app_demo_module_in_order_with_shared_ctx(self, monkeypatch):
        calls = []

        def fake_module(app):
            def seed(organization, ctx):
                assert organization.slug == "demo"
                calls.append((app, sorted(ctx)))
                ctx[app] = True

            return types.SimpleNamespace(seed=seed)

        real_import = importlib.import_module
        monkeypatch.setattr(
            importlib,
            "import_module",
            lambda name, *a: fake_module(name.split(".")[1]) if name.endswith(".demo") else real_import(name, *a),
        )
        run("seed_demo")
        assert DEMO_APPS[:4] == ("clubs", "contacts", "instructors", "classes")  # the others build on these
        assert calls == [(app, sorted(DEMO_APPS[:position])) for position, app in enumerate(DEMO_APPS)]
        # memberships are sold on billing's plans, and bookings draw seats from them
        assert DEMO_APPS.index("billing") < DEMO_APPS.index("memberships") < DEMO_APPS.index("bookings")

    def test_missing_demo_module_is_skipped_but_a_broken_import_is_not(self, monkeypatch):
        real_import = importlib.import_module

        def missing(name, *a):
            if name.endswith(".demo"):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return real_import(name, *a)

        monkeypatch.setattr(importlib, "import_module", missing)
        assert seed_demo.load_demo_module("clubs") is None

        def broken(name, *a):
            if name == "apps.clubs.demo":
                raise ModuleNotFoundError("No module named 'faker'", name="faker")
            return real_import(name, *a)

        monkeypatch.setattr(importlib, "import_module", broken)
        with pytest.raises(ModuleNotFoundError, match="faker"):
            seed_demo.load_demo_module("clubs")
