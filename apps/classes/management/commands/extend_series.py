"""Fill the rolling window of every active open-ended class series (what the beat task does), with progress."""

from django.core.management.base import BaseCommand, CommandError

from apps.classes import services
from apps.organizations.models import Organization


class Command(BaseCommand):
    help = "Extend open-ended class series to now + SERIES_WINDOW_DAYS (or --days). Idempotent."

    def add_arguments(self, parser):
        parser.add_argument("--organization", help="Only this organization (slug or id).")
        parser.add_argument("--days", type=int, help="Window length in days (default: SERIES_WINDOW_DAYS).")
        parser.add_argument("--dry-run", action="store_true", help="Count what would be created; write nothing.")

    def handle(self, *args, organization=None, days=None, dry_run=False, **options):
        org = None
        if organization:
            lookup = {"pk": int(organization)} if organization.isdigit() else {"slug": organization}
            org = Organization.objects.filter(**lookup).first()
            if org is None:
                raise CommandError(f"No organization {organization!r}.")
        if days is not None and days < 0:
            raise CommandError("--days must be 0 or more.")
        verb = "would create" if dry_run else "created"

        def progress(result):
            if result.skipped_locked:
                self.stdout.write(f"series {result.series_id}: locked by another run, skipped")
            else:
                self.stdout.write(
                    f"series {result.series_id} (organization {result.organization_id}): {verb} {result.created}"
                )

        results = services.extend_open_series(organization=org, days=days, dry_run=dry_run, progress=progress)
        total = sum(r.created for r in results)
        self.stdout.write(self.style.SUCCESS(f"{len(results)} series, {verb} {total} occurrences in total"))
