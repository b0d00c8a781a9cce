from django.core.management.base import BaseCommand, CommandError

from apps.organizations.models import ApiKey
from apps.organizations.services import revoke_api_keys

from ._common import get_organization


class Command(BaseCommand):
    help = "Revoke every unrevoked API key with this name in the organization. Effective on the next request."

    def add_arguments(self, parser):
        parser.add_argument("--organization", required=True, help="Organization slug.")
        parser.add_argument("--name", required=True, help="Name of the key(s) to revoke.")

    def handle(self, *args, organization, name, **options):
        org = get_organization(organization)
        count = revoke_api_keys(ApiKey.objects.filter(organization=org, name=name))
        if not count:
            raise CommandError(f"No unrevoked API key named {name!r} in organization {org.slug}.")
        self.stdout.write(f"Revoked {count} API key{'s' if count != 1 else ''} named {name!r} in {org.slug}.")
