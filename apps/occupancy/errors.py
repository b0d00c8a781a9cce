"""The answer when an area's time is already taken, shared by area bookings and area blocks."""

from apps.api.exceptions import Conflict


class SlotUnavailable(Conflict):
    """409 listing what occupies the area in the asked time (`details.conflicts`, from `queries`)."""

    code = "SLOT_UNAVAILABLE"

    def __init__(self, conflicts: list[dict], message="The area is already taken at that time."):
        super().__init__(message, details={"conflicts": conflicts})
