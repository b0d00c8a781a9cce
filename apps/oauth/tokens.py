"""The shape of OAuth tokens: a recognizable prefix (so a leaked token is identifiable by secret scanners and a
bearer credential is routed to its kind without a database query) and 256 random bits."""

import secrets

ACCESS_TOKEN_PREFIX = "gpo_"
REFRESH_TOKEN_PREFIX = "gpr_"


def access_token(request=None) -> str:
    return ACCESS_TOKEN_PREFIX + secrets.token_urlsafe(32)


def refresh_token(request=None) -> str:
    return REFRESH_TOKEN_PREFIX + secrets.token_urlsafe(32)


def is_access_token(token: str) -> bool:
    return token.startswith(ACCESS_TOKEN_PREFIX)
