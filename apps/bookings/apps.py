from django.apps import AppConfig


class BookingsConfig(AppConfig):
    name = "apps.bookings"
    label = "bookings"
    verbose_name = "Bookings"

    def ready(self):
        from . import contact_archive  # noqa: F401  (connects the contact_archived receiver)
