"""Checks of request values that services of several domains share, with one message each."""

from .exceptions import ValidationFailed


def ensure_ends_after_start(start_time, end_time) -> None:
    """400 naming `endTime` unless it is after `startTime`."""
    if end_time <= start_time:
        raise ValidationFailed({"endTime": ["Must be after `startTime`."]})
