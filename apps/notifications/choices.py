"""The channels a notification goes out on."""

from django.db import models


class Channel(models.TextChoices):
    EMAIL = "email", "E-mail"
    IN_APP = "in_app", "In-app"
    MESSAGING = "messaging", "Messaging app"
