"""Celery application: Redis broker in production, eager execution in the embedded default and tests."""

import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("platform")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.worker_init.connect
@signals.beat_init.connect
def refuse_development_secrets(**kwargs):
    """A worker or beat with DEBUG off does not start on development secrets.

    Celery logs and swallows exceptions raised by signal receivers, so this exits instead.
    """
    from django.conf import settings

    from config.production import refusal_message

    message = refusal_message(settings)
    if message:
        raise SystemExit(message)
