from django.apps import AppConfig


class FormsConfig(AppConfig):
    name = "apps.forms"
    label = "forms"
    verbose_name = "Forms"
