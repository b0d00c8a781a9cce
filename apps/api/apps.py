from django.apps import AppConfig
from django.conf import settings

from apps.kernel import db_routing

from . import pagecache


class ApiConfig(AppConfig):
    name = "apps.api"
    label = "api"
    verbose_name = "Platform API plumbing"

    def ready(self):
        pagecache.connect()
        if db_routing.REPLICA_DB_ALIAS in settings.DATABASES:
            db_routing.connect_signals()  # before the first request (the router itself connects on first use)
