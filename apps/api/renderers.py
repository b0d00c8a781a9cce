"""Fast JSON rendering with orjson: UTC date-times end in `Z`, Decimals become numbers."""

import datetime as dt
import json
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


def _stdlib_default(value):
    if isinstance(value, dt.datetime):
        return orjson.loads(orjson.dumps(value, option=OPTIONS))
    try:
        return _default(value)
    except TypeError:
        return str(value)


def dumps(data) -> bytes:
    try:
        return orjson.dumps(data, default=_default, option=OPTIONS)
    except orjson.JSONEncodeError:
        # orjson refuses integers beyond 64 bits (e.g. a huge value echoed back); the standard library writes them.
        return json.dumps(data, default=_stdlib_default, separators=(",", ":"), ensure_ascii=False).encode()


class JSONRenderer(BaseRenderer):
    media_type = "application/json"
    format = "json"
    charset = None

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if data is None:
            return b""
        return dumps(data)
