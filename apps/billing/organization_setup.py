"""A new organization starts with a default sales account (receiver of `post_save` of organizations)."""

from django.db.models.signals import post_save
from django.dispatch import receiver

from .revenue_accounts import ensure_default_account


@receiver(post_save, sender="organizations.Organization", dispatch_uid="billing.default_sales_account")
def create_default_sales_account(sender, instance, created, raw=False, **kwargs):
    if created and not raw:
        ensure_default_account(instance)
