"""The website builder API: the website record, draft pages and sections, section types, layout, styles, SEO
settings, publishing and the release history. Every path works on the organization's default website unless
`?websiteId=` names another of its websites."""

from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.routers import SimpleRouter

from apps.api.exceptions import NotFound, ValidationFailed
from apps.api.resources import shape_serializer
from apps.api.schema import ERROR_REF, crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import (
    MAX_DB_ID,
    CreateResourceMixin,
    DestroyResourceMixin,
    PlatformAPIView,
    PlatformViewSet,
    ResourceViewSet,
    UpdateResourceMixin,
    Writes,
)

from .. import services
from ..models import Page, Release, Website
from ..resources import (
    RELEASE,
    WEBSITE,
    WEBSITE_PAGE,
    WEBSITE_PAGE_SUMMARY,
    DomainVerification,
    Section,
    SectionTypeDefinition,
    SeoSettings,
    WebsiteLayout,
    WebsiteStyles,
    present_domain_verification,
    present_layout,
    present_seo_settings,
    present_styles,
)
from ..section_types import SECTION_TYPES, present_section_type
from .serializers import (
    LayoutUpdateSerializer,
    PageCreateSerializer,
    PageUpdateSerializer,
    PublishSerializer,
    SectionCreateSerializer,
    SectionUpdateSerializer,
    SeoSettingsUpdateSerializer,
    StylesUpdateSerializer,
    WebsiteUpdateSerializer,
)

READ, WRITE, PUBLISH = "website:read", "website:write", "website:publish"
MAX_VERSION = 2**31 - 1
TAGS = ["website"]
WEBSITE_ID = OpenApiParameter(
    "websiteId",
    OpenApiTypes.INT,
    OpenApiParameter.QUERY,
    description="Another website of the organization (default: the default website).",
)
DELETED = OpenApiResponse(description="Deleted.")
SECTION = shape_serializer(Section)
LAYOUT = shape_serializer(WebsiteLayout)
STYLES = shape_serializer(WebsiteStyles)
SEO_SETTINGS = shape_serializer(SeoSettings)
SECTION_TYPE = shape_serializer(SectionTypeDefinition)
DOMAIN_VERIFICATION = shape_serializer(DomainVerification)


def _schema(operation_id, summary, description=None, **kwargs):
    return extend_schema(operation_id=operation_id, summary=summary, description=description, tags=TAGS, **kwargs)


class WebsiteSelectionMixin:
    """The website a request works on: `?websiteId=` of the caller's organization (404 otherwise), else the
    organization's default website. The website is resolved with the path objects, so an unknown `websiteId` is
    404 on every operation before the body is read (415, 400); `selection_parameters` documents it and its 404
    on each operation (`apps.api.schema`)."""

    selection_parameters = (WEBSITE_ID,)
    _selected = None

    def check_query_params(self, request):
        super().check_query_params(request)
        self.selected_website()

    def selected_website(self) -> Website:
        if self._selected is None:
            raw = (self.request.query_params.get("websiteId") or "").strip()
            websites = Website.objects.filter(organization=self.organization)
            if not raw:
                self._selected = services.ensure_default_website(self.organization)
            else:
                if not raw.isdigit():
                    raise ValidationFailed({"websiteId": ["Must be an integer."]})
                website = websites.filter(pk=int(raw)).first() if int(raw) <= MAX_DB_ID else None
                if website is None:
                    raise NotFound("No website with that id in this organization.")
                self._selected = website
        return self._selected

    def present_website(self) -> dict:
        websites = Website.objects.filter(organization=self.organization)
        return WEBSITE.get(websites, self.selected_website().pk, self.present_context())


@crud_schema_view("websites", tags=TAGS, descriptions={"list": "Exactly one has `isDefault`."})
class WebsiteListViewSet(ResourceViewSet):
    queryset = Website.objects.all()
    resource = WEBSITE
    required_scopes = {"list": READ, "retrieve": READ, "verify_domain": WRITE}

    @_schema(
        "website_verify_domain_create",
        "Verify a website's custom domain",
        "A custom domain (set by staff in the admin) is served only once the organization proves it controls the "
        "domain's DNS: publish the TXT `record` returned here, then call again. The answer is 200 whatever the "
        "outcome (`result`); a verified domain stays verified until the domain changes (a new domain gets a new "
        "record). 409 `NO_CUSTOM_DOMAIN` when the website has no custom domain.",
        request=None,
        responses={200: DOMAIN_VERIFICATION},
    )
    @action(detail=True, methods=["post"], url_path="verify-domain")
    def verify_domain(self, request, pk=None):
        website = self.get_object()
        result = services.verify_domain(website)
        return Response(present_domain_verification(website, result))


class WebsitePartView(WebsiteSelectionMixin, PlatformAPIView):
    """A part of the website read and patched as one object: its record, the draft's layout, styles, SEO settings."""

    required_scopes = {"get": READ, "patch": WRITE}
    http_method_names = ["get", "patch", "head"]


class WebsiteView(WebsitePartView):
    """The website record: the draft's owner and what the public is served."""

    @_schema("website_get", "Get the website", responses={200: WEBSITE.serializer})
    def get(self, request):
        return Response(self.present_website())

    @_schema(
        "website_update",
        "Update the website's live fields",
        "Only `name` and `clubId`, which take effect without a publish.",
        request=WebsiteUpdateSerializer,
        responses={200: WEBSITE.serializer},
    )
    def patch(self, request):
        services.update_website(self.selected_website(), self.validated(WebsiteUpdateSerializer, partial=True))
        return Response(self.present_website())


@extend_schema_view(
    list=_schema(
        "website_pages_list",
        "List the draft pages",
        "`sections` and `translations` are omitted from list items; `seo` appears only on a single-page fetch.",
        responses={200: WEBSITE_PAGE_SUMMARY.serializer(many=True)},
    ),
    retrieve=_schema(
        "website_pages_get",
        "Get a draft page",
        "With `sections`, `translations` and the read-only `seo` (`?locale=` gives the canonical URL of that locale).",
        responses={200: WEBSITE_PAGE.serializer},
    ),
    create=_schema(
        "website_pages_create",
        "Create a draft page",
        "`slug` (unique within the website, else 409 `DUPLICATE_VALUE`) and `title` are required. The website's "
        "first page becomes its homepage. The draft stays unpublished.",
        responses={201: WEBSITE_PAGE.serializer, 409: OpenApiResponse(ERROR_REF, description="DUPLICATE_VALUE")},
    ),
    partial_update=_schema(
        "website_pages_update",
        "Update a draft page",
        "`sections`, when sent, replaces the ordered list: send back each read `htmlId` to keep it. "
        "`isHomepage: true` moves the homepage flag to this page.",
        responses={200: WEBSITE_PAGE.serializer, 409: OpenApiResponse(ERROR_REF, description="DUPLICATE_VALUE")},
    ),
    destroy=_schema(
        "website_pages_delete",
        "Delete a draft page",
        "Deleting the homepage gets 409 `RESOURCE_IN_USE`.",
        responses={204: DELETED, 409: OpenApiResponse(ERROR_REF, description="RESOURCE_IN_USE")},
    ),
)
class PageViewSet(
    WebsiteSelectionMixin, CreateResourceMixin, UpdateResourceMixin, DestroyResourceMixin, ResourceViewSet
):
    queryset = Page.objects.all()
    organization_field = "website__organization"
    resource = WEBSITE_PAGE
    list_resource = WEBSITE_PAGE_SUMMARY
    lookup_url_kwarg = "pageId"
    required_scopes = crud_scopes("website", write=("create", "partial_update", "destroy"))
    write_serializer = PageCreateSerializer
    update_serializer = PageUpdateSerializer
    writes = Writes(update=services.update_page, delete=services.delete_page)

    def base_queryset(self):
        return Page.objects.filter(website=self.selected_website()).order_by("-is_homepage", "id")

    def create_object(self, data):
        return services.create_page(self.selected_website(), data)


class SectionViewSet(WebsiteSelectionMixin, PlatformViewSet):
    """The sections of a draft page, addressed by `htmlId`."""

    queryset = Page.objects.all()
    organization_field = "website__organization"
    required_scopes = {"list": READ, "create": WRITE, "partial_update": WRITE, "destroy": WRITE}
    write_serializer = SectionCreateSerializer
    update_serializer = SectionUpdateSerializer

    def get_page(self) -> Page:
        # An id beyond the database's range never gets here: `initial()` answers it 404 first.
        page = Page.objects.filter(website=self.selected_website(), pk=self.kwargs["pageId"]).first()
        if page is None:
            raise NotFound("No page with that id on this website.")
        return page

    def check_path_objects(self):
        page = self.get_page()
        html_id = self.kwargs.get("htmlId")
        if html_id is not None and not any(section["htmlId"] == html_id for section in page.sections):
            raise NotFound("No section with that htmlId on this page.")

    @_schema(
        "website_page_sections_list", "List a page's sections", "In page order.", responses={200: SECTION(many=True)}
    )
    def list(self, request, pageId):
        page = self.paginate_queryset(self.get_page().sections)
        return self.get_paginated_response(page)

    @_schema(
        "website_page_sections_create",
        "Add a section to a page",
        "Appends unless `position` (0-based) is given. An unknown `type`, a type not allowed on pages, or a "
        "`config` that fails the type's schema gets 400 naming the field; a taken `htmlId` gets 409 "
        "`DUPLICATE_VALUE`.",
        responses={201: SECTION, 409: OpenApiResponse(ERROR_REF, description="DUPLICATE_VALUE")},
    )
    def create(self, request, pageId):
        section = services.add_section(self.get_page(), self.validated(self.write_serializer))
        return self.created(section, location=f"{request.path.rstrip('/')}/{section['htmlId']}")

    @_schema(
        "website_page_sections_update",
        "Update a section",
        "`config`, `translations`, `htmlId` and `position`; the objects are replaced whole.",
        responses={200: SECTION, 409: OpenApiResponse(ERROR_REF, description="DUPLICATE_VALUE")},
    )
    def partial_update(self, request, pageId, htmlId):
        data = self.validated(self.update_serializer, partial=True)
        return Response(services.update_section(self.get_page(), htmlId, data))

    @_schema("website_page_sections_delete", "Delete a section", responses={204: DELETED})
    def destroy(self, request, pageId, htmlId):
        services.delete_section(self.get_page(), htmlId)
        return Response(status=204)


class SectionTypeViewSet(WebsiteSelectionMixin, PlatformViewSet):
    """The section types and their `config` schemas (the same for every organization and website; `?websiteId=`
    is checked like on every website path)."""

    queryset = Website.objects.none()
    required_scopes = {"list": READ}

    @_schema(
        "website_section_types_list",
        "List section types",
        "Definitions of section `config` per type: a JSON Schema, the translatable string fields and where the type "
        "is allowed (`page`, `header`, `footer`).",
        responses={200: SECTION_TYPE(many=True)},
    )
    def list(self, request):
        page = self.paginate_queryset([present_section_type(kind) for kind in SECTION_TYPES.values()])
        return self.get_paginated_response(page)


class LayoutView(WebsitePartView):
    @_schema("website_layout_get", "Get the layout (draft)", "The header and footer sections.", responses=LAYOUT)
    def get(self, request):
        return Response(present_layout(self.selected_website()))

    @_schema(
        "website_layout_update",
        "Update the layout (draft)",
        "`header` and `footer` are each replaced whole (null removes one); a `header` section only fits the "
        "header, a `footer` section the footer.",
        request=LayoutUpdateSerializer,
        responses=LAYOUT,
    )
    def patch(self, request):
        self.validated(LayoutUpdateSerializer, partial=True)
        data = {key: request.data[key] for key in ("header", "footer") if key in request.data}
        return Response(present_layout(services.update_layout(self.selected_website(), data)))


class StylesView(WebsitePartView):
    @_schema("website_styles_get", "Get the theme tokens (draft)", responses=STYLES)
    def get(self, request):
        return Response(present_styles(self.selected_website()))

    @_schema(
        "website_styles_update",
        "Update the theme tokens (draft)",
        "Merges the tokens sent. Unknown token names are ignored; a malformed colour or size gets 400 on its path "
        "(`colors.primary`).",
        request=StylesUpdateSerializer,
        responses=STYLES,
    )
    def patch(self, request):
        return Response(present_styles(services.update_styles(self.selected_website(), request.data)))


class SeoSettingsView(WebsitePartView):
    @_schema("website_seo_settings_get", "Get the SEO settings (draft)", responses=SEO_SETTINGS)
    def get(self, request):
        return Response(present_seo_settings(self.selected_website()))

    @_schema(
        "website_seo_settings_update",
        "Update the SEO settings (draft)",
        "Part of the draft: the public sees them after a publish.",
        request=SeoSettingsUpdateSerializer,
        responses=SEO_SETTINGS,
    )
    def patch(self, request):
        data = self.validated(SeoSettingsUpdateSerializer, partial=True)
        return Response(present_seo_settings(services.update_seo_settings(self.selected_website(), dict(data))))


class PublishView(WebsiteSelectionMixin, PlatformAPIView):
    required_scopes = {"post": PUBLISH}
    http_method_names = ["post"]

    @_schema(
        "website_publish",
        "Publish the draft",
        "Creates release `version` n+1 (an immutable snapshot of pages, sections, layout, styles and SEO settings) "
        "and serves it. Emits `website.published`.",
        request=PublishSerializer,
        responses={201: RELEASE.serializer},
    )
    def post(self, request):
        data = self.validated(PublishSerializer)
        website = self.selected_website()
        release = services.publish(
            website, note=data.get("note") or None, published_by=services.publisher_of(self.credential)
        )
        body = RELEASE.get(Release.objects.filter(website=website), release.pk, self.present_context())
        return self.created(body, location=f"/v1/platform/website/releases/{release.version}")


@crud_schema_view("website_releases", tags=TAGS, descriptions={"list": "The publish history, newest first."})
class ReleaseViewSet(WebsiteSelectionMixin, ResourceViewSet):
    queryset = Release.objects.all()
    organization_field = "website__organization"
    resource = RELEASE
    lookup_field = "version"
    lookup_url_kwarg = "version"
    required_scopes = {"list": READ, "retrieve": READ, "rollback": PUBLISH}

    def base_queryset(self):
        return Release.objects.filter(website=self.selected_website()).order_by("-version")

    def get_object(self):
        if int(self.kwargs["version"]) > MAX_VERSION:
            raise NotFound("No release with that version.")
        return super().get_object()

    def check_path_objects(self):
        self.get_object()

    @_schema(
        "website_releases_rollback",
        "Roll back to a release",
        "Serves release `version` again: `activeReleaseVersion` becomes `version`. The draft is untouched. Emits "
        "`website.rolled_back`.",
        request=None,
        responses={200: WEBSITE.serializer},
    )
    @action(detail=True, methods=["post"])
    def rollback(self, request, version=None):
        services.rollback(self.selected_website(), self.get_object().version)
        return Response(self.present_website())


router = SimpleRouter(trailing_slash=False)
router.register("websites", WebsiteListViewSet, basename="website")
router.register("website/pages", PageViewSet, basename="website-page")
router.register("website/releases", ReleaseViewSet, basename="website-release")

urlpatterns = [
    path("website", WebsiteView.as_view(), name="website"),
    path("website/section-types", SectionTypeViewSet.as_view({"get": "list"}), name="website-section-types"),
    path("website/layout", LayoutView.as_view(), name="website-layout"),
    path("website/styles", StylesView.as_view(), name="website-styles"),
    path("website/seo-settings", SeoSettingsView.as_view(), name="website-seo-settings"),
    path("website/publish", PublishView.as_view(), name="website-publish"),
    path(
        "website/pages/<int:pageId>/sections",
        SectionViewSet.as_view({"get": "list", "post": "create"}),
        name="website-sections",
    ),
    path(
        "website/pages/<int:pageId>/sections/<str:htmlId>",
        SectionViewSet.as_view({"patch": "partial_update", "delete": "destroy"}),
        name="website-section",
    ),
    *router.urls,
]
