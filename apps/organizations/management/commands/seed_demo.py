import importlib
from decimal import Decimal

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from apps.kernel.records import set_fields
from apps.organizations.choices import OrganizationStatus, Plan, StaffRole
from apps.organizations.models import ApiKey, Organization, StaffMembership
from apps.organizations.services import issue_api_key, revoke_api_keys

DEMO_SLUG = "demo"
DEMO_ORGANIZATION = {
    "name": "Demo Sports Club",
    "currency": "EUR",
    "default_tax_rate": Decimal("21.00"),
    "timezone": "Europe/Madrid",
    "default_language": "en",
    "offered_languages": ["en", "es"],
    "plan": Plan.PRO,
    "status": OrganizationStatus.ACTIVE,
}
DEMO_EMAIL = "demo@example.com"
DEMO_PASSWORD = "demo-password"
DEMO_KEY_NAME = "Demo key"
# Each app's `apps/<app>/demo.py:seed(organization, ctx)`, in this order; later apps read what earlier ones put in ctx,
# and lines an app appends to `ctx["notes"]` are printed before the sign-in and the key.
DEMO_APPS = (
    "clubs",
    "contacts",
    "instructors",
    "classes",
    "billing",
    "pricing",
    "memberships",
    "products",
    "bookings",
    "events",
    "policies",
    "invoices",
    "transactions",
    "content",
    "messaging",
    "forms",
    "website",
)


def load_demo_module(app: str):
    """The app's demo module, or None when the app has none (any other import failure propagates)."""
    module_name = f"apps.{app}.demo"
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            return None
        raise


class Command(BaseCommand):
    help = (
        "Create or refresh the demo organization (slug demo), the admin user demo@example.com / demo-password and "
        "each app's demo data; then mint a new full-access 'Demo key' (older ones are revoked) and print it last."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--allow-production",
            action="store_true",
            help="Seed even though DEBUG is off (the demo superuser's password is published in the README).",
        )

    def handle(self, *args, **options):
        if not settings.DEBUG and not options["allow_production"]:
            raise CommandError(
                "seed_demo refuses to run with DEBUG off: it creates the superuser "
                f"{DEMO_EMAIL} / {DEMO_PASSWORD}, whose password is public. Pass --allow-production to seed anyway."
            )
        with transaction.atomic():
            organization = self.seed_organization()
            self.seed_user(organization)
            ctx: dict = {}
            for app in DEMO_APPS:
                module = load_demo_module(app)
                if module is None:
                    self.stdout.write(f"  {app}: no demo data module, skipped")
                    continue
                module.seed(organization, ctx)
                self.stdout.write(f"  {app}: seeded")
            revoke_api_keys(ApiKey.objects.filter(organization=organization, name=DEMO_KEY_NAME))
            _, token = issue_api_key(
                organization,
                name=DEMO_KEY_NAME,
                description="Created by seed_demo. Run seed_demo again for a fresh one.",
                scopes=["*"],
            )
        for note in ctx.get("notes", []):
            self.stdout.write(note)
        self.stdout.write(f"Admin sign-in: {DEMO_EMAIL} / {DEMO_PASSWORD}")
        self.stdout.write(f"Demo API key: {token}")

    def seed_organization(self) -> Organization:
        organization, created = Organization.objects.get_or_create(slug=DEMO_SLUG, defaults=DEMO_ORGANIZATION)
        if not created:
            # Restore the demo settings (e.g. after a plan change) so the printed key always works.
            set_fields(organization, DEMO_ORGANIZATION)
            organization.save()
        organization.refresh_from_db()  # the demo modules get database-typed values
        self.stdout.write(f"{'Created' if created else 'Refreshed'} organization {organization.name} ({DEMO_SLUG})")
        return organization

    def seed_user(self, organization) -> None:
        User = get_user_model()
        user = User.objects.filter(username=DEMO_EMAIL).first() or User(username=DEMO_EMAIL)
        # A superuser, so the demo sign-in also sees every other app's admin; the documented password always works.
        user.email = DEMO_EMAIL
        user.is_staff = user.is_superuser = user.is_active = True
        user.set_password(DEMO_PASSWORD)
        user.save()
        StaffMembership.objects.update_or_create(
            user=user, organization=organization, defaults={"role": StaffRole.ADMIN}
        )
