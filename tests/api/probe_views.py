"""Test-only Platform API views that exercise the plumbing (scopes, buckets, idempotency, errors, pages).

Mounted by `tests/api/urls_for_tests.py`, never by `config.urls`.
"""

import time

from django.http import JsonResponse
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.routers import SimpleRouter

from apps.api.exceptions import Conflict
from apps.api.permissions import NO_SCOPE
from apps.api.views import PlatformAPIView, PlatformViewSet
from apps.contacts.models import Contact

REVENUE_READ = frozenset({"plans:read", "products:read", "transactions:read"})


class ProbeInput(serializers.Serializer):
    firstName = serializers.CharField(source="first_name", max_length=120)
    sleep = serializers.FloatField(required=False, min_value=0, max_value=5)
    fail = serializers.BooleanField(required=False, default=False)


def present(contact) -> dict:
    return {"id": contact.id, "firstName": contact.first_name}


class ProbeViewSet(PlatformViewSet):
    """A small resource over contacts: list/retrieve need products:read, writes products:write."""

    queryset = Contact.objects.all()
    http_method_names = ["get", "post", "patch", "head"]
    required_scopes = {
        "list": "products:read",
        "retrieve": "products:read",
        "create": "products:write",
        "partial_update": "products:write",
        "cancel": "products:write",
        "plain": "products:write",
    }

    def base_queryset(self):
        return Contact.objects.order_by("id")

    def list(self, request):
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response([present(c) for c in page])

    def retrieve(self, request, pk=None):
        return Response(present(self.get_object()))

    def create(self, request):
        data = ProbeInput(data=request.data)
        data.is_valid(raise_exception=True)
        if data.validated_data.get("sleep"):
            time.sleep(data.validated_data["sleep"])
        if data.validated_data["fail"]:
            Contact.objects.create(organization=self.organization, first_name="failed attempt")
            raise Conflict("Told to fail.")
        contact = Contact.objects.create(organization=self.organization, first_name=data.validated_data["first_name"])
        return self.created(present(contact), contact)

    def partial_update(self, request, pk=None):
        contact = self.get_object()
        contact.first_name = request.data.get("firstName", contact.first_name)
        contact.save(update_fields=["first_name"])
        return Response(present(contact))

    @action(detail=True, methods=["post"], url_path="cancel")
    def cancel(self, request, pk=None):
        """A verb whose body is optional and never read."""
        return Response(present(self.get_object()))

    @action(detail=False, methods=["post"], url_path="plain")
    def plain(self, request):
        """A create that answers with a plain Django JsonResponse instead of a DRF Response."""
        contact = Contact.objects.create(organization=self.organization, first_name="plain")
        return JsonResponse(present(contact), status=201)


class AnyOfView(PlatformAPIView):
    required_scopes = {"get": REVENUE_READ}

    def get(self, request):
        return Response({"ok": True})


class ReportsView(PlatformAPIView):
    required_scopes = {"get": NO_SCOPE}
    rate_buckets = {"get": "reports"}

    def get(self, request):
        return Response({"ok": True})


class UndeclaredView(PlatformAPIView):
    required_scopes = {"get": NO_SCOPE}

    def get(self, request):
        return Response({"ok": True})

    def post(self, request):  # no required_scopes entry: refused
        return Response({"ok": True})


class BoomView(PlatformAPIView):
    required_scopes = {"get": NO_SCOPE, "post": NO_SCOPE}

    def get(self, request):
        raise RuntimeError("secret internal detail")

    def post(self, request):
        Contact.objects.create(organization=self.organization, first_name="boom")
        raise RuntimeError("secret internal detail")


router = SimpleRouter(trailing_slash=False)
router.register("probes", ProbeViewSet, basename="probe")
