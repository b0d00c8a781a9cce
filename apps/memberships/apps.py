from django.apps import AppConfig


class MembershipsConfig(AppConfig):
    name = "apps.memberships"
    label = "memberships"
    verbose_name = "Memberships"

    def ready(self):
        from . import contact_archive  # noqa: F401  (connects the contact_archived receiver)
