"""Every organization has exactly one default website from the start (receiver of `post_save` of organizations)."""

from django.db.models.signals import post_save
from django.dispatch import receiver

from .services import ensure_default_website


@receiver(post_save, sender="organizations.Organization", dispatch_uid="website.default_website")
def create_default_website(sender, instance, created, raw=False, **kwargs):
    if created and not raw:
        ensure_default_website(instance)
