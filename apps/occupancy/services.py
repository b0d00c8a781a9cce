"""Area blocks: a block takes an area's time, so creating one checks what already occupies it.

Every writer of an area's time (blocks here, bookings in `apps.bookings.services`) locks the Area row with
`select_for_update` inside its transaction before checking for overlaps, so a booking and a block cannot both pass
their checks concurrently.
"""

from django.db import transaction

from apps.api.exceptions import NotFound
from apps.api.validation import ensure_ends_after_start
from apps.clubs.models import Area
from apps.clubs.services import emit_availability_changed
from apps.domain_events.services import emit

from .errors import SlotUnavailable
from .models import AreaBlock
from .queries import booking_conflicts
from .resources import present_block


def create_block(organization, data: dict) -> AreaBlock:
    """Block `data["area"]` for [start_time, end_time) (validated input); refused with 409 SLOT_UNAVAILABLE over an
    active booking. A blank `reason` is none."""
    start_time, end_time = data["start_time"], data["end_time"]
    ensure_ends_after_start(start_time, end_time)
    with transaction.atomic():
        area = Area.objects.select_for_update().select_related("club").get(pk=data["area"].pk)
        conflicts = booking_conflicts(area, start_time, end_time)
        if conflicts:
            raise SlotUnavailable(conflicts, "The area has an active booking in that time.")
        block = AreaBlock.objects.create(
            organization=organization,
            club_id=area.club_id,
            area=area,
            start_time=start_time,
            end_time=end_time,
            reason=data.get("reason") or None,
        )
        emit(organization, "area_block.created", present_block(block.pk))
        emit_availability_changed(area, start_time, end_time, cause="block")
    return block


def delete_block(block: AreaBlock) -> None:
    """Unblock: the block is removed and its time becomes bookable again."""
    with transaction.atomic():
        area = Area.objects.select_for_update().select_related("club").get(pk=block.area_id)
        if not AreaBlock.objects.filter(pk=block.pk).exists():  # a concurrent unblock got there first
            raise NotFound()
        data = present_block(block.pk)
        block.delete()
        emit(area.organization_id, "area_block.deleted", data)
        emit_availability_changed(area, block.start_time, block.end_time, cause="block")
