"""Memberships (`/v1/platform/memberships`): list and items, sell, price and paid state, pause, resume, cancel."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.decorators import action
from rest_framework.response import Response

from apps.api.schema import ERROR_REF, crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import CreateResourceMixin, ResourceViewSet, UpdateResourceMixin, Writes

from .. import services
from ..filters import MembershipFilterSet
from ..models import Membership
from ..resources import MEMBERSHIP
from .serializers import (
    MembershipCancelSerializer,
    MembershipCreateSerializer,
    MembershipPauseSerializer,
    MembershipUpdateSerializer,
)

TRANSITION_REFUSED = OpenApiResponse(ERROR_REF, description="INVALID_STATE_TRANSITION (`details.currentStatus`)")


def _transition(operation_id, summary, description, request=None):
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        description=description,
        request=request,
        responses={200: MEMBERSHIP.serializer, 409: TRANSITION_REFUSED},
    )


@crud_schema_view(
    "memberships",
    tags=["memberships"],
    summaries={
        "create": "Sell a membership",
        "partial_update": "Set a membership's price and paid state",
    },
    descriptions={
        "create": "Creates the membership, its first period's charge and, when the sign-up fee is above 0, the fee's "
        "charge, and one invoice listing them. **No payment is taken.** `endDate` and `nextBillingDate` follow from "
        "the plan's billing frequency (a one-time plan covers `validityPeriod` days); `usesRemaining` starts at the "
        "plan's `maxUses`. `startDate` is at most 366 days from today; a back-dated sale of an auto-renewing plan "
        "bills the period that contains today. A retired or inactive plan, or an archived contact, is 400 on "
        "`planId`/`contactId`.",
        "partial_update": "`price` applies from the next period on. `paymentStatus: paid` records the latest billed "
        "period's charges as paid in full (their invoice follows); `unpaid` reverses it. `endDate` moves the end "
        "(and `nextBillingDate` of an auto-renewing membership); only while active or paused (else 409 "
        "`INVALID_STATE_TRANSITION`).",
    },
    pause=_transition(
        "memberships_pause",
        "Pause a membership",
        "`active` becomes `paused`: it admits nobody and is not renewed. With `resumeDate`, the membership is "
        "resumed on that day.",
        MembershipPauseSerializer,
    ),
    resume=_transition(
        "memberships_resume",
        "Resume a membership",
        "`paused` becomes `active`. When the pause outlasted the billed period, the period that contains today is "
        "billed at once (the periods inside the pause are not).",
    ),
    cancel=_transition(
        "memberships_cancel",
        "Cancel a membership",
        "`active` or `paused` becomes `cancelled`. With `effective: end_of_period` the status stays and `cancelAt` "
        "is set to the day after the current period's end, when the membership is cancelled; it no longer renews. "
        "Either way a period billed ahead that has not started and on which nothing was paid is withdrawn: its "
        "charges become `void` (their invoice follows) and `endDate` moves back.",
        MembershipCancelSerializer,
    ),
)
class MembershipViewSet(CreateResourceMixin, UpdateResourceMixin, ResourceViewSet):
    """A contact's membership of a plan: seats and walk-ins are drawn from it."""

    queryset = Membership.objects.all()
    resource = MEMBERSHIP
    filterset_class = MembershipFilterSet
    required_scopes = crud_scopes("memberships", write=("create", "partial_update", "pause", "resume", "cancel"))

    write_serializer = MembershipCreateSerializer
    update_serializer = MembershipUpdateSerializer

    writes = Writes(create=services.sell_membership, update=services.update_membership)

    @action(detail=True, methods=["post"], url_path="pause")
    def pause(self, request, pk=None):
        membership = self.get_object()
        data = self.validated(MembershipPauseSerializer)
        services.pause_membership(membership, resume_date=data.get("resume_date"))
        return Response(self.present(membership.pk))

    @action(detail=True, methods=["post"], url_path="resume")
    def resume(self, request, pk=None):
        membership = services.resume_membership(self.get_object())
        return Response(self.present(membership.pk))

    @action(detail=True, methods=["post"], url_path="cancel")
    def cancel(self, request, pk=None):
        membership = self.get_object()
        data = self.validated(MembershipCancelSerializer)
        services.cancel_membership(membership, effective=data["effective"], reason=data.get("reason"))
        return Response(self.present(membership.pk))
