"""Grant operations outside the OAuth endpoints: staff revocation (admin) and issuing tokens directly (fixtures)."""

import uuid
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from oauth2_provider.models import set_token_value

from .models import AccessToken, ApplicationType, Client, Grant, RefreshToken
from .resources import mcp_resource
from .tokens import access_token as new_access_token
from .tokens import refresh_token as new_refresh_token


def revoke_grants(grants, reason: str = "revoked_by_staff") -> int:
    """Revoke each grant and all of its tokens; the next request with any of them is a 401."""
    count = 0
    for grant in grants:
        if grant.revoked_at is None:
            grant.revoke(reason)
            count += 1
    return count


@transaction.atomic
def issue_tokens(*, organization, user, scopes, client=None, client_name="Test client", resource=None):
    """A grant with a fresh access and refresh token, as the token endpoint would issue them after consent:
    `(grant, access_token, refresh_token)`. For fixtures and tests; real clients go through the flow."""
    if client is None:
        client = Client.objects.create(
            name=client_name,
            client_type=Client.CLIENT_PUBLIC,
            authorization_grant_type=Client.GRANT_AUTHORIZATION_CODE,
            redirect_uris="http://127.0.0.1/callback",
            application_type=ApplicationType.NATIVE,
            registration_source=Client.RegistrationSource.DCR,
        )
    scopes = scopes.split() if isinstance(scopes, str) else list(scopes)
    resource = [resource or mcp_resource()]
    grant = Grant.objects.create(
        organization=organization, client=client, user=user, scope=" ".join(scopes), resource=resource
    )
    access_raw, refresh_raw = new_access_token(), new_refresh_token()
    access = AccessToken(
        user=user,
        application=client,
        grant=grant,
        scope=grant.scope,
        resource=resource,
        expires=timezone.now() + timedelta(seconds=settings.OAUTH_ACCESS_TOKEN_SECONDS),
    )
    set_token_value(access, access_raw)
    access.save()
    refresh = RefreshToken(
        user=user, application=client, access_token=access, grant=grant, resource=resource, token_family=uuid.uuid4()
    )
    set_token_value(refresh, refresh_raw)
    refresh.save()
    return grant, access_raw, refresh_raw
