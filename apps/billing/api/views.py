"""Revenue accounts, plan categories and plans (`/v1/platform/revenue-accounts`, `/plan-categories`, `/plans`)."""

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.decorators import action
from rest_framework.response import Response

from apps.api.schema import DELETED, ERROR_REF, crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import CreateResourceMixin, DestroyResourceMixin, ResourceViewSet, UpdateResourceMixin, Writes

from .. import plan_services, revenue_accounts
from ..filters import PlanCategoryFilterSet, PlanFilterSet, RevenueAccountFilterSet
from ..models import Plan, PlanCategory, RevenueAccount
from ..resources import PLAN, PLAN_CATEGORY, REVENUE_ACCOUNT
from .serializers import PlanCategoryInputSerializer, PlanInputSerializer, RevenueAccountInputSerializer

LOCALE = OpenApiParameter(
    "locale", str, description="Language code for names and descriptions; falls back to the organization's default."
)
# Reading the chart of accounts needs any one of these (the spec's any-of rule).
REVENUE_ACCOUNT_READ = frozenset({"plans:read", "products:read", "transactions:read"})


@crud_schema_view(
    "revenue_accounts",
    tags=["revenue-accounts"],
    descriptions={
        "list": "Reading needs any of `plans:read`, `products:read`, `transactions:read`.",
        "create": "`isDefault: true` makes this the default sales account and clears the flag elsewhere.",
        "partial_update": "No DELETE: deactivate with `isActive: false`, except the default sales account (409 "
        "`CONFLICT`), which also stays the default until another account is made the default.",
    },
)
class RevenueAccountViewSet(CreateResourceMixin, UpdateResourceMixin, ResourceViewSet):
    """The organization's chart of accounts; exactly one is the default sales account."""

    queryset = RevenueAccount.objects.all()
    resource = REVENUE_ACCOUNT
    filterset_class = RevenueAccountFilterSet
    required_scopes = {
        "list": set(REVENUE_ACCOUNT_READ),
        "retrieve": set(REVENUE_ACCOUNT_READ),
        "create": "revenue-accounts:write",
        "partial_update": "revenue-accounts:write",
    }

    write_serializer = RevenueAccountInputSerializer

    writes = Writes(create=revenue_accounts.create_account, update=revenue_accounts.update_account)


@crud_schema_view(
    "plan_categories",
    tags=["plans"],
    descriptions={"destroy": "Its plans are left without a category."},
    parameters={"list": [LOCALE], "retrieve": [LOCALE]},
)
class PlanCategoryViewSet(CreateResourceMixin, UpdateResourceMixin, DestroyResourceMixin, ResourceViewSet):
    """A grouping of plans shown together."""

    queryset = PlanCategory.objects.all()
    resource = PLAN_CATEGORY
    filterset_class = PlanCategoryFilterSet
    required_scopes = crud_scopes("plans", write=("create", "partial_update", "destroy"))

    write_serializer = PlanCategoryInputSerializer


@crud_schema_view(
    "plans",
    tags=["plans"],
    descriptions={
        "create": "`name` and `price` are required. `revenueAccountId` omitted or null: sales post to the "
        "organization's default account resolved at sale time.",
        "partial_update": "Every field optional, same constraints. `planCategoryId: null` removes the plan from "
        "every category; `isActive: true` re-activates a retired plan.",
    },
    parameters={"list": [LOCALE], "retrieve": [LOCALE]},
    destroy=extend_schema(
        operation_id="plans_delete",
        summary="Delete a plan",
        description="409 `RESOURCE_IN_USE` while any membership references the plan (retire it instead).",
        responses={204: DELETED, 409: OpenApiResponse(ERROR_REF, description="RESOURCE_IN_USE")},
    ),
    retire=extend_schema(
        operation_id="plans_retire",
        summary="Retire a plan",
        description="No new sales (`isActive: false`, `retiredAt` set); existing memberships run on. "
        "409 `INVALID_STATE_TRANSITION` when already retired.",
        request=None,
        responses={200: PLAN.serializer, 409: OpenApiResponse(ERROR_REF, description="INVALID_STATE_TRANSITION")},
    ),
)
class PlanViewSet(CreateResourceMixin, UpdateResourceMixin, DestroyResourceMixin, ResourceViewSet):
    """A membership plan or pass that can be sold."""

    queryset = Plan.objects.all()
    resource = PLAN
    filterset_class = PlanFilterSet
    required_scopes = crud_scopes("plans", write=("create", "partial_update", "destroy", "retire"))

    write_serializer = PlanInputSerializer

    writes = Writes(
        create=plan_services.create_plan, update=plan_services.update_plan, delete=plan_services.delete_plan
    )

    @action(detail=True, methods=["post"], url_path="retire")
    def retire(self, request, pk=None):
        plan = plan_services.retire_plan(self.get_object())
        return Response(self.present(plan.pk))
