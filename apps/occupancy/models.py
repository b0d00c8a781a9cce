"""What occupies an area's time that is stored here: blocks (bookings and classes are their own apps' rows)."""

from django.db import models
from django.db.models import Q


class AreaBlock(models.Model):
    """A period during which an area cannot be booked."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE)
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE)
    area = models.ForeignKey("clubs.Area", on_delete=models.CASCADE, related_name="blocks")
    start_time = models.DateTimeField()
    end_time = models.DateTimeField()
    reason = models.CharField(max_length=255, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # The table clubs created first (moved here without a table change).
        db_table = "clubs_areablock"
        ordering = ["start_time", "id"]
        indexes = [
            models.Index(fields=["area", "start_time", "end_time"]),
            models.Index(fields=["organization", "start_time", "id"], name="area_block_org_start"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(end_time__gt=models.F("start_time")), name="block_end_after_start")
        ]
