import orjson
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser


class JSONParser(BaseParser):
    """orjson body parsing; anything unparseable is a 400 INVALID_JSON."""

    media_type = "application/json"

    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read() if stream is not None else b""
        if not raw.strip():
            return {}
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            raise ParseError(f"JSON parse error: {exc}")
