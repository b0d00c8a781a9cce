"""Create or update a club of an organization from the command line (clubs have no API writes)."""

import argparse
import datetime as dt
import re

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from apps.clubs.choices import WEEKDAYS
from apps.clubs.models import Club
from apps.kernel import clock, slugs
from apps.kernel.records import set_fields
from apps.organizations.models import Organization

HHMM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$|^24:00$")


def _date(value: str, option: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value.strip())
    except ValueError:
        raise CommandError(f"{option}: `{value}` is not a date (YYYY-MM-DD).")


class Command(BaseCommand):
    help = (
        "Create a club, or update it when the slug exists in the organization. "
        "Example: create_club --organization padel-palace --slug centre --name 'Centre' --timezone Europe/Madrid "
        "--opens 08:00 --closes 22:00 --sports padel,tennis"
    )

    def add_arguments(self, parser):
        parser.add_argument("--organization", required=True, help="Organization slug.")
        parser.add_argument("--slug", required=True, help="Club slug (unique in the organization).")
        parser.add_argument("--name", help="Club name (required when creating).")
        parser.add_argument("--timezone", help="IANA time zone, e.g. Europe/Madrid (required when creating).")
        parser.add_argument("--address")
        parser.add_argument("--city")
        parser.add_argument("--country", help="ISO 3166-1 alpha-2 code, e.g. ES.")
        parser.add_argument("--postal-code", dest="postal_code")
        parser.add_argument("--lat", type=float)
        parser.add_argument("--lng", type=float)
        parser.add_argument("--sports", help="Comma list, e.g. padel,tennis.")
        parser.add_argument("--opens", help="HH:MM, the same for every weekday (with --closes).")
        parser.add_argument("--closes", help="HH:MM, after --opens.")
        parser.add_argument("--closed-dates", dest="closed_dates", help="Comma list of YYYY-MM-DD dates.")
        parser.add_argument("--closing-date", dest="closing_date", help="YYYY-MM-DD permanent closing date.")
        parser.add_argument(
            "--marketplace",
            action=argparse.BooleanOptionalAction,
            default=None,
            help="List (or with --no-marketplace, unlist) the club on the public marketplace.",
        )

    def handle(self, *args, **opts):
        organization = Organization.objects.filter(slug=opts["organization"]).first()
        if organization is None:
            raise CommandError(f"No organization with slug `{opts['organization']}`.")
        slug = opts["slug"]
        if not slugs.is_slug(slug):
            raise CommandError(f"--slug: `{slug}` is not a valid slug (lowercase letters, digits, hyphens).")

        fields = self._fields(opts)
        club = Club.objects.filter(organization=organization, slug=slug).first()
        if club is None:
            missing = [f"--{name}" for name in ("name", "timezone") if name not in fields]
            if missing:
                raise CommandError(f"Creating a club needs {' and '.join(missing)}.")
        listed = fields.get("marketplace_listed", club.marketplace_listed if club is not None else False)
        if (
            listed
            and Club.objects.filter(slug=slug, marketplace_listed=True).exclude(pk=getattr(club, "pk", None)).exists()
        ):
            raise CommandError(f"Another club listed on the marketplace already uses the slug `{slug}`.")
        with transaction.atomic():
            if club is None:
                club = Club.objects.create(organization=organization, slug=slug, **fields)
                verb = "Created"
            else:
                set_fields(club, fields)
                club.save()
                verb = "Updated"
        self.stdout.write(self.style.SUCCESS(f"{verb} club `{club.slug}` (id {club.id}) of `{organization.slug}`."))

    def _fields(self, opts) -> dict:
        fields = {}
        for option in ("name", "address", "city", "postal_code"):
            if opts.get(option) is not None:
                fields[option] = opts[option].strip()
        if "name" in fields and not fields["name"]:
            raise CommandError("--name must not be empty.")
        if opts.get("timezone") is not None:
            if not clock.is_zone_name(opts["timezone"]):
                raise CommandError(f"--timezone: `{opts['timezone']}` is not an IANA time zone.")
            fields["timezone"] = opts["timezone"]
        if opts.get("country") is not None:
            country = opts["country"].strip().upper()
            if not re.fullmatch(r"[A-Z]{2}", country):
                raise CommandError("--country must be a two-letter ISO code, e.g. ES.")
            fields["country"] = country
        lat, lng = opts.get("lat"), opts.get("lng")
        if (lat is None) != (lng is None):
            raise CommandError("--lat and --lng go together.")
        if lat is not None:
            if not (-90 <= lat <= 90 and -180 <= lng <= 180):
                raise CommandError("--lat must be within -90..90 and --lng within -180..180.")
            fields["latitude"], fields["longitude"] = lat, lng
        if opts.get("sports") is not None:
            fields["sports"] = [s.strip() for s in opts["sports"].split(",") if s.strip()]
        opens, closes = opts.get("opens"), opts.get("closes")
        if (opens is None) != (closes is None):
            raise CommandError("--opens and --closes go together.")
        if opens is not None:
            for option, value in (("--opens", opens), ("--closes", closes)):
                if not HHMM.match(value):
                    raise CommandError(f"{option}: `{value}` is not a time of day (HH:MM).")
            if opens == "24:00" or (closes != "24:00" and closes <= opens):
                raise CommandError("--opens must be before --closes.")
            fields["opening_hours"] = {day: [[opens, closes]] for day in WEEKDAYS}
        if opts.get("closed_dates") is not None:
            days = [_date(v, "--closed-dates") for v in opts["closed_dates"].split(",") if v.strip()]
            fields["closed_dates"] = sorted({d.isoformat() for d in days})
        if opts.get("closing_date") is not None:
            fields["closing_date"] = _date(opts["closing_date"], "--closing-date")
        if opts.get("marketplace") is not None:
            fields["marketplace_listed"] = opts["marketplace"]
        return fields
