from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "apps.webhooks"
    label = "webhooks"
    verbose_name = "Webhooks"

    def ready(self):
        from . import relay  # noqa: PLC0415 - connects the outbox relay once the app registry is ready

        relay.connect()
