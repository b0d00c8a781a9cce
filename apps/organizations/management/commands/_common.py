"""Helpers shared by the organization management commands."""

import datetime

from django.core.exceptions import ValidationError
from django.core.management.base import CommandError

from apps.organizations.models import Organization


def get_organization(slug: str) -> Organization:
    organization = Organization.objects.filter(slug=slug).first()
    if organization is None:
        raise CommandError(f"No organization with slug {slug!r}. Create it with create_organization first.")
    return organization


def parse_date(value: str | None) -> datetime.date | None:
    if not value:
        return None
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise CommandError(f"Invalid date {value!r}: use YYYY-MM-DD.")


def command_error(exc: ValidationError) -> CommandError:
    """A CommandError carrying every message of a ValidationError."""
    return CommandError(" ".join(exc.messages))
