import orjson
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser

from .exceptions import ValidationFailed

NUL_MESSAGE = "Must not contain NUL (\\u0000) characters."


def nul_paths(value, prefix="") -> list[str]:
    """Dotted paths of every string (or object key) in `value` that contains a NUL character."""
    found = []
    if isinstance(value, str):
        if "\x00" in value:
            found.append(prefix or "nonFieldErrors")
    elif isinstance(value, dict):
        for key, sub in value.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            if "\x00" in key:
                found.append(path.replace("\x00", "\\u0000"))
            else:
                found.extend(nul_paths(sub, path))
    elif isinstance(value, list):
        for index, sub in enumerate(value):
            found.extend(nul_paths(sub, f"{prefix}.{index}" if prefix else str(index)))
    return found


class JSONParser(BaseParser):
    """orjson body parsing; anything unparseable is a 400 INVALID_JSON.

    A NUL character in any string is a 400 VALIDATION_ERROR on that field: PostgreSQL can store it neither in
    text nor in jsonb columns, so it would otherwise fail deep in a write.
    """

    media_type = "application/json"

    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read() if stream is not None else b""
        if not raw.strip():
            return {}
        try:
            data = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            raise ParseError(f"JSON parse error: {exc}")
        if b"\\u0000" in raw:
            paths = nul_paths(data)
            if paths:
                raise ValidationFailed({path: [NUL_MESSAGE] for path in paths})
        return data
