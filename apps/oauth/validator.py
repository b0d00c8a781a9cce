"""django-oauth-toolkit's request validator, bound to organizations and grants.

- An authorization code carries the organization the user picked on the consent page.
- Exchanging it creates the `Grant` every token of that consent belongs to, and marks the code used in the same
  transaction (a concurrent second exchange finds it used); presenting a used code again revokes that grant.
- A refresh token rotates on every use; presenting one that was already used revokes the whole grant.
- A token's resource (RFC 8707) defaults to the MCP server; only the two known resources can be asked for.
"""

import hashlib

from django.db import transaction
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauthlib.oauth2.rfc6749 import errors

from .models import AccessToken, AuthorizationCode, Grant, RefreshToken
from .resources import known_resource, mcp_resource


def code_digest(code: str) -> str:
    """Authorization codes are stored as their SHA-256, like tokens: the code in the redirect is never at rest."""
    return hashlib.sha256(code.encode("utf-8", "surrogatepass")).hexdigest()


class PlatformOAuth2Validator(OAuth2Validator):
    # --- authorization codes -------------------------------------------------------------------------------
    def _create_authorization_code(self, request, code, expires=None):
        if request.code_challenge_method != "S256" or not request.code_challenge:
            raise errors.InvalidRequestError(
                description="PKCE with code_challenge_method=S256 is required.", request=request
            )
        organization_id = getattr(request, "organization_id", None)
        if organization_id is None:
            raise errors.AccessDeniedError(request=request)
        if not getattr(request, "resource", None):
            request.resource = [mcp_resource()]
        row = super()._create_authorization_code(request, {**code, "code": code_digest(code["code"])}, expires)
        AuthorizationCode.objects.filter(pk=row.pk).update(organization_id=organization_id)
        return row

    def _code_row(self, code, client):
        return AuthorizationCode.objects.filter(code=code_digest(code), application=client).first()

    def get_code_challenge(self, code, request):
        row = self._code_row(code, request.client)
        return (row.code_challenge or None) if row else None

    def get_code_challenge_method(self, code, request):
        row = self._code_row(code, request.client)
        return (row.code_challenge_method or None) if row else None

    def confirm_redirect_uri(self, client_id, code, redirect_uri, client, *args, **kwargs):
        row = self._code_row(code, client)
        return row is not None and row.redirect_uri_allowed(redirect_uri)

    def _check_and_set_request_resource(self, request):
        """django-oauth-toolkit reads the code's resource by the code itself: give it the stored digest."""
        if request.grant_type != "authorization_code":
            return super()._check_and_set_request_resource(request)
        raw = request.code
        request.code = code_digest(raw)
        try:
            return super()._check_and_set_request_resource(request)
        finally:
            request.code = raw

    def validate_code(self, client_id, code, client, request, *args, **kwargs):
        row = (
            AuthorizationCode.objects.select_related("grant").filter(code=code_digest(code), application=client).first()
        )
        if row is None:
            return False
        if row.grant_id is not None:
            # RFC 6749 §4.1.2: a code used twice revokes the tokens issued for it.
            row.grant.revoke("authorization_code_reused")
            return False
        if row.is_expired() or row.organization_id is None:
            return False
        request.scopes = row.scope.split(" ")
        request.user = row.user
        request.authorization_code_row = row
        return True

    def invalidate_authorization_code(self, client_id, code, request, *args, **kwargs):
        """The code was marked used with the grant it produced (`_save_bearer_token`); it stays until it expires
        so that presenting it again is recognized as reuse."""

    # --- refresh tokens ------------------------------------------------------------------------------------
    def validate_refresh_token(self, refresh_token, client, request, *args, **kwargs):
        valid = super().validate_refresh_token(refresh_token, client, request, *args, **kwargs)
        digest = hashlib.sha256(refresh_token.encode("utf-8", "surrogatepass")).hexdigest()
        if not valid:
            reused = (
                RefreshToken.objects.filter(token_checksum=digest, revoked__isnull=False, application=client)
                .select_related("grant")
                .first()
            )
            if reused is not None and reused.grant is not None:
                reused.grant.revoke("refresh_token_reused")
            return False
        rt = request.refresh_token_instance
        if rt.grant_id is None or Grant.objects.filter(pk=rt.grant_id, revoked_at__isnull=True).count() == 0:
            return False
        return True

    # --- tokens --------------------------------------------------------------------------------------------
    def _save_bearer_token(self, token, request, *args, **kwargs):
        if request.grant_type == "authorization_code":
            row = request.authorization_code_row
            grant = Grant.objects.create(
                organization_id=row.organization_id,
                client=request.client,
                user=request.user,
                scope=token.get("scope", row.scope),
                resource=row.resource or [mcp_resource()],
            )
            # Exactly one exchange of a code wins; the other finds it used and gets invalid_grant (and rolls back).
            if not AuthorizationCode.objects.filter(pk=row.pk, grant__isnull=True).update(grant=grant):
                raise errors.InvalidGrantError(request=request)
        else:
            rt = request.refresh_token_instance
            grant = Grant.objects.select_for_update().filter(pk=rt.grant_id, revoked_at__isnull=True).first()
            if grant is None:
                raise errors.InvalidGrantError(request=request)
        request.oauth_grant = grant
        super()._save_bearer_token(token, request, *args, **kwargs)
        for resource in request.resource or []:
            if not known_resource(resource):
                raise errors.CustomOAuth2Error(
                    error="invalid_target", description="The resource is not served here.", request=request
                )

    def save_bearer_token(self, token, request, *args, **kwargs):
        with transaction.atomic():
            return self._save_bearer_token(token, request, *args, **kwargs)

    def _create_access_token(self, expires, request, token, source_refresh_token=None):
        access = AccessToken(
            user=request.user,
            scope=token["scope"],
            expires=expires,
            application=request.client,
            source_refresh_token=source_refresh_token,
            resource=getattr(request, "resource", None) or request.oauth_grant.resource,
            grant=request.oauth_grant,
        )
        self._set_token_value(access, token["access_token"])
        access.save()
        return access

    def _create_refresh_token(self, request, refresh_token_code, access_token, previous_refresh_token):
        refresh = super()._create_refresh_token(request, refresh_token_code, access_token, previous_refresh_token)
        RefreshToken.objects.filter(pk=refresh.pk).update(grant=request.oauth_grant)
        refresh.grant = request.oauth_grant
        return refresh

    def revoke_token(self, token, token_type_hint, request, *args, **kwargs):
        """RFC 7009: revoking any token of a grant revokes the grant (every token of it), for this client only."""
        if getattr(request.client, "pk", None) is None:
            return
        digest = hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
        for model in (AccessToken, RefreshToken):
            row = model.objects.filter(token_checksum=digest, application_id=request.client.pk).first()
            if row is not None and row.grant_id is not None:
                Grant.objects.get(pk=row.grant_id).revoke("revoked_by_client")
                return

    def get_default_redirect_uri(self, client_id, request, *args, **kwargs):
        """OAuth 2.1: every authorization request names its redirect URI."""
        return None
