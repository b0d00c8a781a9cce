from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand

from apps.organizations.services import issue_api_key

from ._common import command_error, get_organization, parse_date


class Command(BaseCommand):
    help = (
        "Create an API key. The token is printed once, alone on the last line of stdout, and cannot be "
        "retrieved again (only a keyed hash is stored)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--organization", required=True, help="Organization slug.")
        parser.add_argument("--name", required=True, help="Label of the key.")
        parser.add_argument(
            "--scopes", required=True, help='Space- or comma-separated, e.g. "classes:read bookings:write"; "*" = all.'
        )
        parser.add_argument("--expires", help="Last day of validity, YYYY-MM-DD, on the organization's clock.")
        parser.add_argument("--description", default="")

    def handle(self, *args, organization, name, scopes, expires, description, **options):
        org = get_organization(organization)
        expires_on = parse_date(expires)
        try:
            key, token = issue_api_key(
                org,
                name=name,
                description=description,
                scopes=scopes.replace(",", " ").split(),
                expires_on=expires_on,
            )
        except ValidationError as exc:
            raise command_error(exc)
        expiry = key.expires_at.isoformat() if key.expires_at else "never"
        self.stdout.write(
            f"Created API key {key.name!r} for {org.slug} (scopes: {' '.join(key.scopes)}; expires: {expiry})."
        )
        self.stdout.write("Store this token now; it is shown only once:")
        self.stdout.write(token)
