"""The area block shape, and the free interval that availability computes."""

import datetime as dt
from typing import TypedDict

from apps.api.resources import PresentContext, Resource

from . import models


def utc(value: dt.datetime | None) -> dt.datetime | None:
    """An aware date-time in UTC, so it renders with `Z` whatever offset it was written with."""
    return None if value is None else value.astimezone(dt.UTC)


class AreaBlock(TypedDict):
    id: int
    clubId: int
    areaId: int
    startTime: dt.datetime
    endTime: dt.datetime
    reason: str | None
    createdAt: dt.datetime


class AreaBlockResource(Resource):
    shape = AreaBlock
    model = models.AreaBlock

    def present(self, row: dict, ctx: PresentContext) -> AreaBlock:
        return self.body(row, ctx, startTime=utc(row["start_time"]), endTime=utc(row["end_time"]))


class AvailabilityInterval(TypedDict):
    """A free interval of an area (computed, not stored)."""

    clubId: int
    areaId: int
    areaName: str
    startTime: dt.datetime
    endTime: dt.datetime


AREA_BLOCK = AreaBlockResource()


def present_block(block_id: int) -> AreaBlock:
    return AREA_BLOCK.get(models.AreaBlock.objects.all(), block_id, PresentContext(organization=None))
