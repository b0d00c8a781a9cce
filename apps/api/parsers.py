import orjson
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser

from .exceptions import ApiError, ValidationFailed

NUL_MESSAGE = "Must not contain NUL (\\u0000) characters."
# Deeper bodies are refused before anything walks them: no field nests this deep, and the response renderer
# (orjson, 254 levels) and Python's recursion limit (1000 frames) must never meet a body or a stored value deeper.
MAX_JSON_DEPTH = 100


class TooDeep(Exception):
    pass


_NUL_KEY = object()  # stands for the value of an object key that itself contains NUL: its path is reported


def nul_paths(value, max_depth: int | None = None) -> list[str]:
    """Dotted paths of every string (or object key) in `value` that contains a NUL character.

    Iterative (an explicit stack, depth-first in document order), so a deeply nested body cannot overflow
    the interpreter's stack; raises TooDeep when a container sits deeper than `max_depth`.
    """
    found = []
    stack = [(value, "", 1)]
    while stack:
        value, prefix, depth = stack.pop()
        if value is _NUL_KEY:
            found.append(prefix)
        elif isinstance(value, str):
            if "\x00" in value:
                found.append(prefix or "nonFieldErrors")
        elif isinstance(value, dict | list):
            if max_depth is not None and depth > max_depth:
                raise TooDeep()
            if isinstance(value, dict):
                children = []
                for key, sub in value.items():
                    path = f"{prefix}.{key}" if prefix else str(key)
                    if "\x00" in key:
                        children.append((_NUL_KEY, path.replace("\x00", "\\u0000"), depth + 1))
                    else:
                        children.append((sub, path, depth + 1))
            else:
                children = [(sub, f"{prefix}.{i}" if prefix else str(i), depth + 1) for i, sub in enumerate(value)]
            stack.extend(reversed(children))
    return found


class JSONParser(BaseParser):
    """orjson body parsing; anything unparseable is a 400 INVALID_JSON.

    A NUL character in any string is a 400 VALIDATION_ERROR on that field: PostgreSQL can store it neither in
    text nor in jsonb columns, so it would otherwise fail deep in a write. A body nested deeper than
    MAX_JSON_DEPTH is a 400 INVALID_JSON. A body is an object: `null` reads as no body, any other JSON value (`[]`,
    `5`, `"x"`) is a 400 VALIDATION_ERROR, so no view takes an empty array for "no body".
    """

    media_type = "application/json"

    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read() if stream is not None else b""
        if not raw.strip():
            return {}
        try:
            data = orjson.loads(raw)
        except (orjson.JSONDecodeError, RecursionError) as exc:
            raise ParseError(f"JSON parse error: {exc}")
        has_nul = b"\\u0000" in raw
        # Only a body with that many brackets can be that deep: most bodies skip the walk.
        maybe_deep = raw.count(b"[") + raw.count(b"{") > MAX_JSON_DEPTH
        if has_nul or maybe_deep:
            try:
                paths = nul_paths(data, MAX_JSON_DEPTH)
            except TooDeep:
                raise ApiError(
                    f"The request body is nested deeper than {MAX_JSON_DEPTH} levels.", code="INVALID_JSON"
                ) from None
            if paths:
                raise ValidationFailed({path: [NUL_MESSAGE] for path in paths})
        if data is None:
            return {}
        if not isinstance(data, dict):
            raise ValidationFailed({"nonFieldErrors": ["The request body must be a JSON object."]})
        return data
