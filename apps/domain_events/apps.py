from django.apps import AppConfig


class DomainEventsConfig(AppConfig):
    name = "apps.domain_events"
    label = "domain_events"
    verbose_name = "Domain events"
