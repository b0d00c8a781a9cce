import functools

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.response import Response

from apps.api.permissions import NO_SCOPE
from apps.api.scopes import RESOURCE_CATALOG, WILDCARD, ordered
from apps.api.views import PlatformAPIView

from .. import services
from ..resources import ME_SCHEMA, SETTINGS_SCHEMA, present_settings
from .serializers import OrganizationSettingsUpdateSerializer


@functools.lru_cache(maxsize=256)
def ordered_scopes(scopes: frozenset) -> tuple[str, ...]:
    """`ordered(scopes)`, sorted once per distinct set of scopes rather than on every `/me`."""
    return tuple(ordered(scopes))


class MeView(PlatformAPIView):
    """The calling credential: its organization, scopes and the resource catalogue."""

    required_scopes = {"get": NO_SCOPE}

    @extend_schema(
        operation_id="me_get",
        summary="Who am I: the credential, its organization and scopes",
        responses={200: OpenApiResponse(ME_SCHEMA)},
        tags=["identity"],
    )
    def get(self, request):
        credential = request.auth
        organization = credential.organization
        scopes = [WILDCARD] if credential.full_access else list(credential.scopes)
        return Response(
            {
                "credential": {"type": credential.kind, "name": credential.name},
                "organization": {"id": organization.id, "currency": organization.currency},
                "scopes": scopes,
                "effectiveScopes": list(ordered_scopes(credential.effective_scopes)),
                "fullAccess": credential.full_access,
                "resources": RESOURCE_CATALOG,
            }
        )


class OrganizationSettingsView(PlatformAPIView):
    """The caller's organization settings: name, languages and booking card names (the currency is on `/me`)."""

    required_scopes = {"get": NO_SCOPE, "patch": "organization:write"}
    http_method_names = ["get", "patch", "head"]

    @extend_schema(
        operation_id="organization_get",
        summary="Get the organization settings",
        responses={200: OpenApiResponse(SETTINGS_SCHEMA)},
        tags=["organization"],
    )
    def get(self, request):
        return Response(present_settings(self.organization))

    @extend_schema(
        operation_id="organization_update",
        summary="Update the organization settings",
        request=OrganizationSettingsUpdateSerializer,
        responses={200: OpenApiResponse(SETTINGS_SCHEMA)},
        tags=["organization"],
    )
    def patch(self, request):
        organization = services.update_settings(self.organization, self.validated(OrganizationSettingsUpdateSerializer))
        return Response(present_settings(organization))
