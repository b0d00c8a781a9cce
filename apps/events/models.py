from django.db import models
from django.db.models import F, Q

from apps.classes.choices import Visibility

from .choices import EventStatus


class Event(models.Model):
    """A one-off happening at a club (a tournament, a social night) that sells tickets; attendance is a Booking
    (`type: event`) that points to it and to one of its tickets."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE, related_name="events")
    club = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="events")
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=220, allow_unicode=False)
    description = models.TextField(null=True, blank=True)
    start_time = models.DateTimeField()
    end_time = models.DateTimeField()
    status = models.CharField(max_length=10, choices=EventStatus.choices, default=EventStatus.DRAFT)
    visibility = models.CharField(max_length=12, choices=Visibility.choices, default=Visibility.PUBLIC)
    images = models.JSONField(default=list, blank=True)
    # Attendees at most (active bookings, every ticket type together); null: uncapped.
    capacity = models.PositiveIntegerField(null=True, blank=True)
    translations = models.JSONField(default=dict, blank=True, help_text="{language: {name, description}}")
    published_at = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["start_time", "id"]
        indexes = [models.Index(fields=["organization", "start_time", "id"], name="event_org_start")]
        constraints = [
            models.UniqueConstraint(fields=["organization", "slug"], name="event_slug_unique_per_organization"),
            models.CheckConstraint(condition=Q(end_time__gt=F("start_time")), name="event_end_after_start"),
            models.CheckConstraint(
                condition=Q(capacity__isnull=True) | Q(capacity__gte=1), name="event_capacity_at_least_one"
            ),
        ]

    def __str__(self):
        return self.name


class EventTicket(models.Model):
    """A ticket type of an event: its price before tax, how many may be sold, and when."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE)
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="tickets")
    name = models.CharField(max_length=120)
    price_before_tax = models.DecimalField(max_digits=10, decimal_places=2)
    # Tickets of this type that may be sold (active bookings); null: only the event's capacity limits it.
    quantity = models.PositiveIntegerField(null=True, blank=True)
    sales_start = models.DateTimeField(null=True, blank=True)
    sales_end = models.DateTimeField(null=True, blank=True)
    position = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(price_before_tax__gte=0), name="event_ticket_price_not_negative"),
            models.CheckConstraint(
                condition=Q(sales_start__isnull=True) | Q(sales_end__isnull=True) | Q(sales_end__gt=F("sales_start")),
                name="event_ticket_sales_end_after_start",
            ),
        ]

    def __str__(self):
        return f"{self.event.name}: {self.name}" if self.event_id else self.name
