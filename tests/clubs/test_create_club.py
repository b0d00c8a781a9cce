import datetime as dt
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction

from apps.clubs.models import Club

pytestmark = pytest.mark.django_db


def run(*args):
    out = StringIO()
    call_command("create_club", *args, stdout=out)
    return out.getvalue()


def test_create_club_with_everything(organization):
    out = run(
        "--organization", "padel-palace", "--slug", "centre", "--name", "Centre Court", "--timezone", "Europe/Madrid",
        "--address", "Calle Mayor 1", "--city", "Madrid", "--country", "es", "--postal-code", "28013",
        "--lat", "40.4", "--lng", "-3.7", "--sports", "padel, tennis", "--opens", "08:00", "--closes", "22:00",
        "--closed-dates", "2026-12-25,2027-01-01", "--closing-date", "2030-06-30", "--marketplace",
    )  # fmt: skip
    club = Club.objects.get()
    assert "Created club `centre`" in out
    assert club.organization == organization
    assert (club.name, club.timezone, club.address, club.city, club.country, club.postal_code) == (
        "Centre Court", "Europe/Madrid", "Calle Mayor 1", "Madrid", "ES", "28013",
    )  # fmt: skip
    assert (club.latitude, club.longitude) == (40.4, -3.7)
    assert club.sports == ["padel", "tennis"]
    assert club.opening_hours["monday"] == [["08:00", "22:00"]] and len(club.opening_hours) == 7
    assert club.closed_dates == ["2026-12-25", "2027-01-01"]
    assert club.closing_date == dt.date(2030, 6, 30)
    assert club.marketplace_listed is True


def test_rerun_updates_only_given_fields(organization):
    run("--organization", "padel-palace", "--slug", "c", "--name", "C", "--timezone", "UTC", "--city", "Madrid")
    out = run("--organization", "padel-palace", "--slug", "c", "--name", "C2", "--opens", "07:00", "--closes", "24:00")
    assert "Updated club `c`" in out
    club = Club.objects.get()
    assert (club.name, club.city, club.timezone) == ("C2", "Madrid", "UTC")
    assert club.opening_hours["sunday"] == [["07:00", "24:00"]]
    assert club.marketplace_listed is False
    run("--organization", "padel-palace", "--slug", "c", "--marketplace")
    assert Club.objects.get().marketplace_listed is True
    run("--organization", "padel-palace", "--slug", "c", "--no-marketplace")
    assert Club.objects.get().marketplace_listed is False
    assert Club.objects.count() == 1


@pytest.mark.parametrize(
    "args,message",
    [
        (["--organization", "nope", "--slug", "c", "--name", "C", "--timezone", "UTC"], "No organization"),
        (["--slug", "c", "--name", "C", "--timezone", "Mars/Olympus"], "IANA"),
        (["--slug", "c", "--name", "C"], "--timezone"),
        (["--slug", "c", "--timezone", "UTC"], "--name"),
        (["--slug", "Bad Slug", "--name", "C", "--timezone", "UTC"], "slug"),
        (["--slug", "c", "--name", "C", "--timezone", "UTC", "--lat", "40"], "--lat and --lng"),
        (["--slug", "c", "--name", "C", "--timezone", "UTC", "--lat", "91", "--lng", "0"], "--lat"),
        (["--slug", "c", "--name", "C", "--timezone", "UTC", "--opens", "08:00"], "--opens and --closes"),
        (["--slug", "c", "--name", "C", "--timezone", "UTC", "--opens", "8am", "--closes", "22:00"], "--opens"),
        (["--slug", "c", "--name", "C", "--timezone", "UTC", "--opens", "22:00", "--closes", "08:00"], "before"),
        (["--slug", "c", "--name", "C", "--timezone", "UTC", "--opens", "08:00", "--closes", "08:00"], "before"),
        (["--slug", "c", "--name", "C", "--timezone", "UTC", "--opens", "08:00", "--closes", "25:00"], "--closes"),
        (["--slug", "c", "--name", "C", "--timezone", "UTC", "--closed-dates", "2026-13-01"], "--closed-dates"),
        (["--slug", "c", "--name", "C", "--timezone", "UTC", "--closing-date", "soon"], "--closing-date"),
        (["--slug", "c", "--name", "C", "--timezone", "UTC", "--country", "Spain"], "--country"),
    ],
)
def test_bad_input_is_a_command_error(organization, args, message):
    if "--organization" not in args:
        args = ["--organization", "padel-palace", *args]
    with pytest.raises(CommandError, match=message):
        run(*args)
    assert not Club.objects.exists()


def test_a_listed_slug_is_unique_across_organizations(organization, other_organization):
    run("--organization", "padel-palace", "--slug", "centre", "--name", "A", "--timezone", "UTC", "--marketplace")
    with pytest.raises(CommandError, match="already uses the slug `centre`"):
        run("--organization", "rival-gym", "--slug", "centre", "--name", "B", "--timezone", "UTC", "--marketplace")
    run("--organization", "rival-gym", "--slug", "centre", "--name", "B", "--timezone", "UTC")  # unlisted: allowed
    with pytest.raises(CommandError, match="already uses the slug"):
        run("--organization", "rival-gym", "--slug", "centre", "--marketplace")
    rival = Club.objects.get(organization=other_organization)
    assert rival.marketplace_listed is False
    rival.marketplace_listed = True
    with pytest.raises(ValidationError, match="Another club listed on the marketplace already uses this slug"):
        rival.full_clean()  # what the admin's form shows
    with pytest.raises(IntegrityError), transaction.atomic():
        rival.save()
