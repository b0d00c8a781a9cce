from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from apps.organizations.choices import OrganizationStatus, Plan
from apps.organizations.services import (
    upsert_organization,
    validate_currency,
    validate_language,
    validate_tax_rate,
    validate_timezone,
)

from ._common import command_error


class Command(BaseCommand):
    help = (
        "Create an organization, or update an existing one (same --slug): only the options given are changed. "
        "New organizations default to EUR, 0% tax, UTC, English, the pro plan and active."
    )

    def add_arguments(self, parser):
        parser.add_argument("--slug", required=True, help="Unique identifier, e.g. padel-palace.")
        parser.add_argument("--name", help="Display name (required when creating).")
        parser.add_argument("--currency", help="ISO 4217 code, e.g. EUR.")
        parser.add_argument("--tax-rate", help="Default tax rate in percent, 0..100, e.g. 21.")
        parser.add_argument("--timezone", help="IANA time zone, e.g. Europe/Madrid.")
        parser.add_argument("--language", help="Default language code, e.g. en.")
        parser.add_argument("--plan", choices=Plan.values)
        parser.add_argument("--status", choices=OrganizationStatus.values)

    def handle(self, *args, slug, name, currency, tax_rate, timezone, language, plan, status, **options):
        try:
            fields = {
                "name": name.strip() if name is not None else None,
                "currency": validate_currency(currency) if currency is not None else None,
                "default_tax_rate": validate_tax_rate(tax_rate) if tax_rate is not None else None,
                "timezone": validate_timezone(timezone) if timezone is not None else None,
                "default_language": validate_language(language) if language is not None else None,
                "plan": plan,
                "status": status,
            }
            if name is not None and not fields["name"]:
                raise CommandError("--name cannot be empty.")
            organization, created = upsert_organization(slug, **fields)
        except ValidationError as exc:
            raise command_error(exc)
        verb = "Created" if created else "Updated"
        self.stdout.write(
            f"{verb} organization {organization.slug} (id {organization.id}): {organization.name}, "
            f"{organization.currency}, tax {organization.default_tax_rate}%, {organization.timezone}, "
            f"language {organization.default_language}, plan {organization.plan}, {organization.status}."
        )
