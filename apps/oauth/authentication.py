"""An OAuth access token as a Platform API credential, beside API keys (apps/api/authentication.py)."""

import hashlib
from datetime import timedelta

from django.utils import timezone

from apps.api.authentication import register_resolver
from apps.api.credentials import Credential
from apps.api.exceptions import Unauthenticated
from apps.api.pagecache import writes_no_page_shows

from .models import AccessToken, Grant
from .resources import platform_resource, token_allowed_at
from .tokens import is_access_token

LAST_USED_RESOLUTION = timedelta(minutes=1)
REFUSED = "The OAuth access token is unknown, expired or revoked."


def checksum(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def authenticate_oauth_token(token: str, resource: str | None = None) -> Credential | None:
    """The credential for an OAuth access token used at `resource` (the Platform API unless told); None when the
    token is not an OAuth access token at all. One query: the token, its grant, client and organization."""
    if not is_access_token(token):
        return None
    access = (
        AccessToken.objects.select_related("grant__organization", "grant__client")
        .filter(token_checksum=checksum(token))
        .order_by()
        .first()
    )
    now = timezone.now()
    if access is None or access.grant is None or access.expires <= now or access.grant.revoked_at is not None:
        raise Unauthenticated(REFUSED)
    if not token_allowed_at(access.resource or [], resource or platform_resource()):
        raise Unauthenticated("The OAuth access token was issued for another resource.")
    grant = access.grant
    if grant.last_used_at is None or now - grant.last_used_at >= LAST_USED_RESOLUTION:
        with writes_no_page_shows():
            Grant.objects.filter(pk=grant.pk).update(last_used_at=now)
    name = grant.client.name or grant.client.client_id
    return Credential.build("oauth", grant.pk, name, grant.organization, access.scope.split())


register_resolver(authenticate_oauth_token)
