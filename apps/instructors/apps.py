from django.apps import AppConfig


class InstructorsConfig(AppConfig):
    name = "apps.instructors"
    label = "instructors"
    verbose_name = "Instructors"
