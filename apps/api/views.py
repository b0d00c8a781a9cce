"""Base views of the Platform API: tenancy, scopes, rate buckets and idempotency in one place.

Every check runs on one of DRF's own hooks (DRF's `dispatch` is not copied), in the order the spec fixes:

| check | answer | hook |
|---|---|---|
| route | 404 | URL resolver (`not_found`) |
| failed-authentication flood of the address | 429 | `initial()`, before DRF's (no database work) |
| body over the size cap | 413 | `initial()`, before anything reads the body |
| authentication, organization lock | 401, 403 | authentication class; `perform_authentication` counts failures |
| method | 405 with `Allow` | `ScopePermission` |
| scope | 403 short body | `ScopePermission` |
| rate limits (general + the action's bucket) | 429 with `Retry-After` | `ratelimit.BucketThrottle`, `throttled()` |
| path values no row can have | 404 | `initial()`, after DRF's |
| NUL or too many query parameters | 400 | `check_query_params()` |
| path object | 404 | `check_path_objects()`, before any answer about the body |
| media type | 415 | `check_body()` |
| body not JSON (also on actions that read none) | 400 `INVALID_JSON` | `check_body()` |
| `Idempotency-Key` | replay, 409, 422 | `initial()`, last |
| the body's fields, business rules | 400, 409 | the handler, services |

The rate-limit headers go on every answer to an authenticated credential (`finalize_response`), none on a failed
authentication.
"""

import datetime as dt
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import TooManyFieldsSent
from django.db import transaction
from django.db.models import Model, QuerySet
from django.http import Http404
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions as drf_exceptions
from rest_framework import viewsets
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.kernel import db_routing, records

from . import bodylimit, idempotency, pagecache, ratelimit
from .client_address import client_address
from .credentials import Credential
from .exceptions import ApiError, NotFound, RateLimited, ValidationFailed, error_body
from .middleware import json_response
from .parsers import NUL_MESSAGE
from .resources import PresentContext, Resource

MAX_DB_ID = 2**63 - 1
BODY_METHODS = frozenset({"POST", "PATCH", "PUT"})


def carries_body(request) -> bool:
    return bodylimit.declared_length(request.META) > 0 or bodylimit.is_chunked(request.META)


def is_json_media_type(content_type: str) -> bool:
    return content_type.split(";", 1)[0].strip().lower() == "application/json"


def out_of_range_id(kwargs) -> bool:
    """A numeric path value no database id can have (would be a DataError, i.e. a 500, otherwise)."""
    for value in kwargs.values():
        if isinstance(value, int) and not isinstance(value, bool) and value > MAX_DB_ID:
            return True
        if isinstance(value, str) and value.isdigit() and (len(value) > 19 or int(value) > MAX_DB_ID):
            return True
    return False


def check_query_params(request):
    """A NUL character in a query parameter is a 400 on that parameter (PostgreSQL cannot compare it); more
    parameters than Django parses (DATA_UPLOAD_MAX_NUMBER_FIELDS) is a 400 too. Platform and marketplace views."""
    try:
        request.query_params  # noqa: B018 (parsed here, where a refusal is a 400)
    except TooManyFieldsSent:
        raise ValidationFailed(
            {"nonFieldErrors": [f"At most {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS} query parameters are allowed."]}
        ) from None
    bad = [key for key, values in request.query_params.lists() if "\x00" in key or any("\x00" in v for v in values)]
    if bad:
        raise ValidationFailed({key.replace("\x00", "\\u0000"): [NUL_MESSAGE] for key in bad})


class PlatformViewMixin:
    """The checks of every Platform API view (see the module's table). Declare `required_scopes` and optionally
    `rate_buckets` (`{action: bucket}`, counted besides the general bucket)."""

    required_scopes: dict = {}
    rate_buckets: dict = {}
    http_method_names = ["get", "post", "patch", "delete", "head"]
    throttle_classes = [ratelimit.BucketThrottle]
    idempotent_request = None  # the claimed Idempotency-Key of this POST, if it sent one
    replica_read_actions = frozenset({"list"})  # besides the reports: see reads_from_replica()
    created_location: str | None = None  # a created row's `Location` when not under this path: "/v1/x/{pk}"

    @property
    def organization(self):
        return self.request.organization

    def validated(self, serializer_class, partial=False) -> dict:
        """The request body validated by `serializer_class` (400 VALIDATION_ERROR otherwise); the request is in the
        serializer's context so organization-scoped id fields resolve."""
        serializer = serializer_class(data=self.request.data, partial=partial, context={"request": self.request})
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    @property
    def credential(self) -> Credential:
        return self.request.auth

    def present_context(self) -> PresentContext:
        return PresentContext.for_request(self.request)

    def created(self, data, obj: Model | None = None, location: str | None = None) -> Response:
        response = Response(data, status=201)
        if location is None and obj is not None and self.created_location:
            location = self.created_location.format(pk=obj.pk)
        elif location is None and obj is not None:
            location = f"{self.request.path.rstrip('/')}/{obj.pk}"
        if location:
            response["Location"] = location
        return response

    def current_action(self):
        return getattr(self, "action", None) or self.request.method.lower()

    def get_rate_bucket(self, request) -> str | None:
        """The special bucket this request counts against besides the general one (`BucketThrottle`)."""
        return self.rate_buckets.get(self.current_action())

    def throttled(self, request, wait):
        exceeded = request._rate_limit_state
        raise RateLimited(
            f"Rate limit exceeded for the `{exceeded.bucket}` bucket; retry in {exceeded.reset} seconds.",
            details={"bucket": exceeded.bucket, "limit": exceeded.limit, "windowSeconds": ratelimit.WINDOW_SECONDS},
            headers={"Retry-After": str(exceeded.reset)},
        )

    def perform_authentication(self, request):
        """A refused credential (401, or 403 for the organization lock) counts against the client address."""
        try:
            super().perform_authentication(request)
        except Exception as exc:
            if getattr(exc, "status_code", None) in (401, 403):
                ratelimit.count_failed_authentication(client_address(request))
            raise

    def initial(self, request, *args, **kwargs):
        ratelimit.refuse_failed_authentication_flood(client_address(request))  # before any database work
        bodylimit.enforce(request._request)  # before anything reads the body, authentication included
        super().initial(request, *args, **kwargs)  # authentication, method and scope, rate limits
        if out_of_range_id(kwargs) or any(isinstance(v, str) and "\x00" in v for v in kwargs.values()):
            raise NotFound()
        self.check_query_params(request)
        self.check_body(request)
        if request.method == "POST":
            self.idempotent_request = idempotency.begin(request, request.auth)
            if self.idempotent_request is not None and self.idempotent_request.replay is not None:
                raise idempotency.Replay(self.idempotent_request.replay)
        if self.reads_from_replica(request):
            db_routing.read_from_replica()  # after authentication: credentials are always read on the primary

    def reads_from_replica(self, request) -> bool:
        """Lists and the reports (the actions counted against the `reports` bucket) may read from a configured
        replica; the router still keeps them on the primary once the request wrote."""
        if request.method not in ("GET", "HEAD"):
            return False
        action = self.current_action()
        return action in self.replica_read_actions or self.rate_buckets.get(action) == ratelimit.REPORTS

    def check_query_params(self, request):
        check_query_params(request)

    def check_path_objects(self):
        """Resolve the path's objects, if the view has any, so that their 404 wins over any answer about the body."""

    def check_body(self, request):
        """415 for a body that is not JSON, 400 INVALID_JSON for one that does not parse (or a NUL, or too deep):
        on every POST/PATCH/PUT that carries a body, also when the handler would never read it."""
        if request.method not in BODY_METHODS or not carries_body(request):
            return
        try:
            if not is_json_media_type(request.content_type):
                raise drf_exceptions.UnsupportedMediaType(request.content_type or "(none)")
            request.data  # noqa: B018 (parsed here, before the handler)
        except Exception:
            self.check_path_objects()
            raise

    def handle_exception(self, exc):
        if isinstance(exc, idempotency.Replay):
            return exc.response
        if self.idempotent_request is not None:  # a retry runs again
            self.idempotent_request.release()
        return super().handle_exception(exc)

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if self.idempotent_request is not None:
            self.idempotent_request.finish(response)
        credential = getattr(request, "_auth", None)
        if isinstance(credential, Credential):
            state = getattr(request, "_rate_limit_state", None) or ratelimit.tightest(
                ratelimit.peek(request, credential.rate_limit_key)
            )
            ratelimit.apply_headers(response, state)
        if response.status_code == 405:
            response["Allow"] = ", ".join(self.allowed_methods)
        return response

    @property
    def default_response_headers(self):
        return {}


class PlatformAPIView(PlatformViewMixin, APIView):
    """A non-resource Platform API endpoint (e.g. /me)."""


class OrganizationScopedMixin:
    """Tenant scoping, done once: every queryset starts from the credential's organization.

    Subclasses customise `base_queryset()` (select_related, annotations), never `get_queryset()`.
    """

    organization_field = "organization"

    def base_queryset(self) -> QuerySet:
        return self.queryset.all()

    def get_queryset(self):
        return self.base_queryset().filter(**{self.organization_field: self.request.organization})

    def get_object(self):
        lookup = self.kwargs.get(self.lookup_url_kwarg or self.lookup_field)
        if self.lookup_field in ("pk", "id") and (not str(lookup).isdigit() or int(lookup) > MAX_DB_ID):
            raise Http404
        return super().get_object()

    def check_path_objects(self):
        if (self.lookup_url_kwarg or self.lookup_field) not in self.kwargs:
            return
        try:
            self.get_object()
        except (Http404, ApiError, drf_exceptions.APIException):  # a 404 (or another answer) about the path
            raise
        except Exception:  # a view whose get_object needs more than the path: leave the 404 to the handler
            return


class PlatformViewSet(OrganizationScopedMixin, PlatformViewMixin, viewsets.GenericViewSet):
    """Base of every Platform API resource viewset: declarations (scopes, buckets, `resource`, `filterset_class`),
    list and retrieve from the mixins below, writes through services."""

    lookup_value_regex = r"[0-9]+"
    resource: Resource | None = None
    filterset_class = None

    def get_serializer_class(self):
        """The documented body of the resource (OpenAPI); bodies themselves are presented by the resource."""
        if self.resource is not None:
            return self.resource.serializer
        return super().get_serializer_class()

    def filter_queryset(self, queryset):
        """The FilterSet declares a list's query parameters: items (`get_object`, writes) are never filtered."""
        if getattr(self, "action", None) != "list":
            return queryset
        return super().filter_queryset(queryset)

    def present(self, pk) -> dict:
        """The resource body of row `pk` in this viewset's (tenant-scoped) queryset; 404 when it is not there."""
        return self.resource.get(self.get_queryset(), pk, self.present_context())

    def present_path_object(self) -> dict:
        """The resource body of the row the path names (by `lookup_field`, `pk` or `slug`)."""
        value = self.kwargs[self.lookup_url_kwarg or self.lookup_field]
        return self.resource.get(self.get_queryset(), value, self.present_context(), field=self.lookup_field)


class ParentPathMixin:
    """A collection under a parent row of the path (`/classes/{id}/bookings`): the parent is the organization's row
    of `parent_model` that `parent_kwarg` names, read once a request (404 otherwise, before any answer about the
    body); the collection holds the rows whose `parent_field` is that parent."""

    parent_model: type[Model]
    parent_field: str
    parent_kwarg = "id"

    def parent_queryset(self) -> QuerySet:
        return self.parent_model.objects.filter(organization=self.organization)

    def get_parent(self) -> Model:
        if not hasattr(self, "_parent"):
            self._parent = self.parent_queryset().filter(pk=self.kwargs[self.parent_kwarg]).first()
        if self._parent is None:
            raise NotFound()
        return self._parent

    def get_queryset(self):
        return super().get_queryset().filter(**{self.parent_field: self.get_parent()})

    def check_path_objects(self):
        self.get_parent()
        super().check_path_objects()


class ListResourceMixin:
    """`GET` collection: the tenant-scoped queryset, filtered and ordered by `filterset_class`, one page of it
    presented by `list_resource` or else `resource` (the same number of queries for 1 row or 200). The rendered page
    is reused until the data or its `fresh_until` moves (`apps/api/pagecache.py`), with an `ETag`."""

    list_resource: Resource | None = None  # a list item's shape when it is not the item's (`resource`)
    cache_pages = True  # False when a page depends on more than its rows, the caller and `fresh_until`

    def list(self, request, *args, **kwargs):
        resource = self.list_resource or self.resource
        if self.cache_pages and pagecache.usable(resource.model):
            return pagecache.respond(request, lambda: self.list_page(resource, freshness=True))
        return Response(self.list_page(resource)[0])

    def list_page(self, resource: Resource, freshness: bool = False) -> tuple[dict, dt.datetime | None]:
        """The page body, and with `freshness` until when it holds whatever the data (`Resource.fresh_until`)."""
        ctx = self.present_context()
        page = self.paginate_queryset(resource.page_source(self.filter_queryset(self.get_queryset())))
        body = self.get_paginated_response(resource.present_rows(page, ctx)).data
        return body, resource.fresh_until(self.get_queryset(), ctx) if freshness else None


class RetrieveResourceMixin:
    """`GET` item: the resource body of the path's row, 404 outside the caller's organization."""

    def retrieve(self, request, *args, **kwargs):
        return Response(self.present_path_object())


@dataclass(frozen=True)
class Writes:
    """A resource's write services: `create(organization, data)` returning the new row, `update(row, data)` and
    `delete(row)` (which may refuse with 409). One left out is the plain write of `apps.kernel.records` (a row with
    no rule beyond its validated fields)."""

    create: Callable | None = None
    update: Callable | None = None
    delete: Callable | None = None


class CreateResourceMixin:
    """`POST` collection: the body validated by `write_serializer`, `create_object(data)` (the `writes.create`
    service, returning the new row), 201 with the resource body and `Location`."""

    write_serializer = None  # the one place a view names its create body (the OpenAPI request is read from it)
    writes = Writes()

    def create_object(self, data: dict) -> Model:
        if self.writes.create is None:
            return records.create(self.queryset.model, self.organization, data)
        return self.writes.create(self.organization, data)

    def create(self, request, *args, **kwargs):
        self.check_path_objects()  # a nested collection's parent: its 404 before the body's 400
        obj = self.create_object(self.validated(self.write_serializer))
        return self.created(self.present(obj.pk), obj)


class UpdateResourceMixin:
    """`PATCH` item: the body validated (partially) by `update_serializer` (else `write_serializer`),
    `update_object(instance, data)` (the `writes.update` service), 200 with the resource body."""

    write_serializer = None
    update_serializer = None  # the update body when it is not `write_serializer` made partial
    writes = Writes()
    # True: the body is presented inside the update's transaction, under the row lock it took, so it shows what this
    # request wrote (a product's stock), not a later concurrent write.
    present_under_update_lock = False

    def update_object(self, instance, data: dict) -> None:
        (self.writes.update or records.update)(instance, data)

    def partial_update(self, request, *args, **kwargs):
        with transaction.atomic() if self.present_under_update_lock else nullcontext():
            instance = self.get_object()
            self.update_object(instance, self.validated(self.update_serializer or self.write_serializer, partial=True))
            return Response(self.present(instance.pk))


class DestroyResourceMixin:
    """`DELETE` item: `destroy_object(instance)` (the `writes.delete` service: it deletes the path's row or refuses
    with 409), 204 with no body."""

    writes = Writes()

    def destroy_object(self, instance) -> None:
        (self.writes.delete or records.delete)(instance)

    def destroy(self, request, *args, **kwargs):
        self.destroy_object(self.get_object())
        return Response(status=204)


class ResourceViewSet(ListResourceMixin, RetrieveResourceMixin, PlatformViewSet):
    """A resource with list and retrieve; `CreateResourceMixin`/`UpdateResourceMixin`/`DestroyResourceMixin` add
    the writes."""


@csrf_exempt
def not_found(request, *args, **kwargs):
    """Any path under /v1/ that no route serves, whatever the method."""
    return json_response(error_body(404, "NOT_FOUND", "No route serves this path."), 404, request)
