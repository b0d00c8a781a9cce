"""Old notification delivery records are purged by a daily beat task; recent ones are kept."""

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from apps.notifications.models import NotificationDelivery
from apps.notifications.tasks import purge_delivery_records


def test_purge_drops_only_old_delivery_records(db):
    old = NotificationDelivery.objects.create(key="n1:1:email")
    NotificationDelivery.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=31))
    recent = NotificationDelivery.objects.create(key="n2:1:email")
    assert purge_delivery_records.delay().get() == 1
    assert list(NotificationDelivery.objects.values_list("pk", flat=True)) == [recent.pk]


def test_purge_is_scheduled_daily():
    entry = settings.CELERY_BEAT_SCHEDULE["purge-notification-deliveries"]
    assert entry["task"] == "apps.notifications.tasks.purge_delivery_records"
    assert entry["schedule"] == 86400
