from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand
from django.core.validators import validate_email
from django.db import transaction

from apps.organizations.choices import StaffRole
from apps.organizations.models import StaffMembership

from ._common import command_error, get_organization


class Command(BaseCommand):
    help = (
        "Create a staff user (username = e-mail) who can sign in to the admin, with a role in one organization. "
        "Running it again for the same e-mail updates the password, the role and the settings flag."
    )

    def add_arguments(self, parser):
        parser.add_argument("--organization", required=True, help="Organization slug.")
        parser.add_argument("--email", required=True)
        parser.add_argument("--password", required=True)
        parser.add_argument("--role", required=True, choices=StaffRole.values)
        parser.add_argument(
            "--full-settings-management",
            action="store_true",
            help="Grant settings.manage.organization to a staff-role user (never effective for managers).",
        )

    def handle(self, *args, organization, email, password, role, full_settings_management, **options):
        org = get_organization(organization)
        email = email.strip().lower()
        User = get_user_model()
        try:
            validate_email(email)
            user = User.objects.filter(username=email).first()
            validate_password(password, user)
        except ValidationError as exc:
            raise command_error(exc)
        with transaction.atomic():
            created = user is None
            if created:
                user = User(username=email)
            user.email = email
            user.is_staff = True
            user.is_active = True
            user.set_password(password)
            user.save()
            StaffMembership.objects.update_or_create(
                user=user,
                organization=org,
                defaults={"role": role, "full_settings_management": full_settings_management},
            )
        if role == StaffRole.MANAGER and full_settings_management:
            self.stderr.write("Note: managers never hold settings.manage.organization; the flag has no effect.")
        self.stdout.write(
            f"{'Created' if created else 'Updated'} user {email} as {role} of {org.slug}"
            f"{' with full settings management' if full_settings_management else ''}."
        )
