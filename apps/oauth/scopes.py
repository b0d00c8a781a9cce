"""django-oauth-toolkit reads the Platform API's scope registry: an OAuth scope is an API scope, nothing else."""

from oauth2_provider.scopes import BaseScopes

from apps.api.scopes import ALL_SCOPES, SCOPE_DESCRIPTIONS, WILDCARD

OAUTH_SCOPES = (WILDCARD, *ALL_SCOPES)


class RegistryScopes(BaseScopes):
    def get_all_scopes(self):
        return {scope: SCOPE_DESCRIPTIONS.get(scope, scope) for scope in OAUTH_SCOPES}

    def get_available_scopes(self, application=None, request=None, *args, **kwargs):
        return list(OAUTH_SCOPES)

    def get_default_scopes(self, application=None, request=None, *args, **kwargs):
        """A request without `scope` asks for what the client registered, else for everything (the consent page
        says so in words before anything is granted)."""
        registered = getattr(application, "registered_scope", "") or ""
        requested = [s for s in registered.split() if s in OAUTH_SCOPES]
        return requested or [WILDCARD]
