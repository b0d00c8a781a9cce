"""JSON-RPC 2.0 and the two eras of the MCP protocol this server speaks.

- The stateless revision `2026-07-28`: no handshake; every request carries `params._meta` with
  `io.modelcontextprotocol/protocolVersion`, `.../clientInfo` and `.../clientCapabilities`, mirrored in the
  `MCP-Protocol-Version`, `Mcp-Method` and (for `tools/call`) `Mcp-Name` headers, which must agree with the body.
- The handshake revisions `2025-03-26`, `2025-06-18` and `2025-11-25`: `initialize` negotiates the version, then
  requests carry the `MCP-Protocol-Version` header (none means `2025-03-26`, as that revision says).

No session is kept: any process answers any request, whichever era it belongs to.
"""

import base64
import binascii
import re

MODERN_VERSIONS = ("2026-07-28",)
HANDSHAKE_VERSIONS = ("2025-03-26", "2025-06-18", "2025-11-25")
SUPPORTED_VERSIONS = HANDSHAKE_VERSIONS + MODERN_VERSIONS
LATEST_HANDSHAKE = HANDSHAKE_VERSIONS[-1]
DEFAULT_HANDSHAKE = "2025-03-26"  # a handshake-era request without the header

PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo"
CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
HEADER_MISMATCH = -32020
UNSUPPORTED_PROTOCOL_VERSION = -32022

# The HTTP status of a JSON-RPC error on the 2026-07-28 wire (its transport says 400, and 404 for an unknown
# method). Handshake-era clients read errors from a 200 answer, except those no message id can be read from.
MODERN_ERROR_STATUS = {
    PARSE_ERROR: 400,
    INVALID_REQUEST: 400,
    INVALID_PARAMS: 400,
    HEADER_MISMATCH: 400,
    UNSUPPORTED_PROTOCOL_VERSION: 400,
    METHOD_NOT_FOUND: 404,
    INTERNAL_ERROR: 500,
}
HANDSHAKE_ERROR_STATUS = {
    PARSE_ERROR: 400,
    INVALID_REQUEST: 400,
    UNSUPPORTED_PROTOCOL_VERSION: 400,
    INTERNAL_ERROR: 500,
}


class RpcError(Exception):
    def __init__(self, code: int, message: str, data=None, status: int | None = None):
        self.code = code
        self.message = message
        self.data = data
        self.status = status  # the HTTP status when the era's table would not say (a malformed message)
        super().__init__(message)

    def error(self) -> dict:
        error = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


def unsupported_version(requested) -> RpcError:
    return RpcError(
        UNSUPPORTED_PROTOCOL_VERSION,
        "Unsupported protocol version",
        {"supported": list(SUPPORTED_VERSIONS), "requested": requested},
    )


_B64_SENTINEL = re.compile(r"^=\?base64\?(?P<payload>.*)\?=$")


def decode_header_value(value: str | None) -> str | None:
    """A header value as the client meant it: `=?base64?…?=` wraps a value that is not plain printable ASCII."""
    if value is None:
        return None
    match = _B64_SENTINEL.fullmatch(value)
    if match is None:
        return value
    try:
        decoded = base64.b64decode(match["payload"], validate=True)
        return decoded.decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None


def is_modern(header_version: str | None, params) -> bool:
    """A request of the stateless era: its envelope names a version in `_meta`, or its header names that era's
    version. (A request naming neither, with an unknown version header, is refused with the supported versions.)"""
    meta = params.get("_meta") if isinstance(params, dict) else None
    if isinstance(meta, dict) and PROTOCOL_VERSION_KEY in meta:
        return True
    return header_version in MODERN_VERSIONS


def check_modern_envelope(body: dict, headers) -> str:
    """The version a 2026-07-28 request speaks, after the checks of that revision, in its order: the `_meta`
    envelope (-32602), the headers against the body (-32020), then the version itself (-32022)."""
    params = body.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    if not isinstance(meta, dict):
        raise RpcError(
            INVALID_PARAMS,
            f"params._meta must be an object carrying {PROTOCOL_VERSION_KEY!r} and {CLIENT_CAPABILITIES_KEY!r}",
        )
    missing = [key for key in (PROTOCOL_VERSION_KEY, CLIENT_CAPABILITIES_KEY) if key not in meta]
    if missing:
        raise RpcError(INVALID_PARAMS, "params._meta is missing " + ", ".join(missing))
    version = meta[PROTOCOL_VERSION_KEY]
    header_version = headers.get("MCP-Protocol-Version")
    if header_version is None or header_version != version:
        raise RpcError(HEADER_MISMATCH, "The MCP-Protocol-Version header does not match the request's protocol version")
    method = body.get("method")
    if headers.get("Mcp-Method") != method:
        raise RpcError(HEADER_MISMATCH, "The Mcp-Method header does not match the request's method")
    if method == "tools/call":
        name = params.get("name")
        if name is not None and decode_header_value(headers.get("Mcp-Name")) != name:
            raise RpcError(HEADER_MISMATCH, "The Mcp-Name header does not match the request's tool name")
    if not isinstance(version, str):
        raise RpcError(INVALID_PARAMS, "The protocol version must be a string")
    if version not in MODERN_VERSIONS:
        raise unsupported_version(version)
    return version
