from django.db import models
from django.db.models import Q

from .choices import ClassStatus, EndsType, Frequency, SeriesStatus, Visibility


class ClassType(models.Model):
    """A kind of class (Yoga, Padel clinic): default party size, colour, sport."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE, related_name="class_types")
    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=120, null=True, blank=True)
    description = models.TextField(null=True, blank=True)
    max_party_size = models.PositiveIntegerField(null=True, blank=True)
    color = models.CharField(max_length=7, null=True, blank=True)
    sport = models.CharField(max_length=60, null=True, blank=True)
    is_active = models.BooleanField(default=True)
    translations = models.JSONField(default=dict, blank=True, help_text="{language: {name, description}}")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["organization", "slug"], condition=Q(slug__isnull=False), name="uniq_class_type_slug"
            )
        ]

    def __str__(self):
        return self.name


class ProgressionTrack(models.Model):
    """A ladder of levels across class types (beginner to advanced)."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE)
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=120)
    description = models.TextField(null=True, blank=True)
    class_types = models.ManyToManyField(ClassType, blank=True, related_name="progression_tracks")
    translations = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return self.name


class ProgressionLevel(models.Model):
    """One level of a progression track."""

    track = models.ForeignKey(ProgressionTrack, on_delete=models.CASCADE, related_name="levels")
    name = models.CharField(max_length=120)
    position = models.IntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]


class ClassSeries(models.Model):
    """The recurrence rule of a recurring class; its occurrences are ClassOccurrence rows."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE)
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE)
    frequency = models.CharField(max_length=10, choices=Frequency.choices)
    interval = models.PositiveIntegerField(default=1)
    days_of_week = models.JSONField(default=list, blank=True)
    ends_type = models.CharField(max_length=10, choices=EndsType.choices, default=EndsType.NEVER)
    ends_date = models.DateTimeField(null=True, blank=True)
    ends_total_occurrences = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=SeriesStatus.choices, default=SeriesStatus.ACTIVE)
    # The template slot: first start (the series runs from here), duration, and the club-local wall clock.
    dtstart = models.DateTimeField()
    duration_minutes = models.PositiveIntegerField()
    timezone = models.CharField(max_length=64)
    template = models.JSONField(default=dict, blank=True, help_text="Class fields copied onto new occurrences.")
    materialized_until = models.DateTimeField(null=True, blank=True)
    # Highest rule index already expanded (skipped occurrences included): extension continues after it.
    materialized_index = models.PositiveIntegerField(default=0)
    # Shift applied to every rule occurrence by `scope=all_future` time changes (seconds, may be negative).
    start_shift_seconds = models.IntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "class series"
        indexes = [models.Index(fields=["status", "ends_type"])]


class ClassOccurrence(models.Model):
    """One class occurrence: the `Class` of the API. A recurring class has one row per occurrence."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE, related_name="classes")
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="classes")
    area = models.ForeignKey("clubs.Area", null=True, blank=True, on_delete=models.SET_NULL, related_name="classes")
    class_type = models.ForeignKey(ClassType, null=True, blank=True, on_delete=models.PROTECT, related_name="classes")
    series = models.ForeignKey(ClassSeries, null=True, blank=True, on_delete=models.CASCADE, related_name="occurrences")
    occurrence_index = models.PositiveIntegerField(null=True, blank=True)
    instructors = models.ManyToManyField("instructors.Instructor", blank=True, related_name="classes")
    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=120, null=True, blank=True)
    description = models.TextField(null=True, blank=True)
    images = models.JSONField(default=list, blank=True)
    start_time = models.DateTimeField()
    end_time = models.DateTimeField()
    status = models.CharField(max_length=10, choices=ClassStatus.choices, default=ClassStatus.ACTIVE)
    visibility = models.CharField(max_length=12, choices=Visibility.choices, default=Visibility.PUBLIC)
    sport = models.CharField(max_length=60, null=True, blank=True)
    color = models.CharField(max_length=7, null=True, blank=True)
    price_before_tax = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    is_free = models.BooleanField(default=False)
    max_capacity = models.PositiveIntegerField(null=True, blank=True)
    allow_waitlist = models.BooleanField(default=True)
    external_source = models.CharField(max_length=40, null=True, blank=True)
    external_id = models.CharField(max_length=100, null=True, blank=True)
    translations = models.JSONField(default=dict, blank=True, help_text="{language: {name, description}}")
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancellation_reason = models.TextField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["start_time", "id"]
        db_table = "classes_class"
        indexes = [
            models.Index(fields=["organization", "start_time", "id"]),
            models.Index(fields=["club", "start_time"]),
            models.Index(fields=["area", "start_time"]),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["series", "occurrence_index"], condition=Q(series__isnull=False), name="uniq_series_occurrence"
            ),
            models.CheckConstraint(condition=Q(end_time__gt=models.F("start_time")), name="class_end_after_start"),
        ]

    def __str__(self):
        return f"{self.name} @ {self.start_time:%Y-%m-%d %H:%M}"
