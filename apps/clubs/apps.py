from django.apps import AppConfig


class ClubsConfig(AppConfig):
    name = "apps.clubs"
    label = "clubs"
    verbose_name = "Clubs"
