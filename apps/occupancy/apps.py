from django.apps import AppConfig


class OccupancyConfig(AppConfig):
    name = "apps.occupancy"
    label = "occupancy"
    verbose_name = "Occupancy"
