"""Fast JSON rendering with orjson: UTC date-times end in `Z`, Decimals become numbers."""

from decimal import Decimal

import orjson
from rest_framework.renderers import BaseRenderer

OPTIONS = orjson.OPT_UTC_Z | orjson.OPT_NON_STR_KEYS


def _default(value):
    if isinstance(value, Decimal):
        return float(value)
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, set | frozenset | tuple):
        return list(value)
    raise TypeError


def dumps(data) -> bytes:
    return orjson.dumps(data, default=_default, option=OPTIONS)


class JSONRenderer(BaseRenderer):
    media_type = "application/json"
    format = "json"
    charset = None

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if data is None:
            return b""
        return dumps(data)
