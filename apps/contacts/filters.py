"""Query parameters of the contacts lists."""

from apps.api.filtersets import (
    ChoiceListFilter,
    ContainsFilter,
    DateWindow,
    IntegerFilter,
    Ordering,
    PlatformFilterSet,
    SearchFilter,
    TextFilter,
)

from .choices import ContactStatus
from .models import SEARCH_TEXT


class ContactFilterSet(PlatformFilterSet):
    status = ChoiceListFilter("status", choices=ContactStatus, default=[ContactStatus.ACTIVE])
    q = SearchFilter("first_name", method="search", help_text="Case-insensitive search over name, e-mail and phone.")
    email = TextFilter("email", lookup_expr="iexact", help_text="Exact e-mail (case-insensitive).")
    pipelineStageId = IntegerFilter("pipeline_stage_id")
    sourceId = IntegerFilter("source_id")
    tag = ContainsFilter("tags")

    date_window = DateWindow(
        "created_at",
        start_help="On createdAt; a bare date is a whole UTC day.",
        end_help="On createdAt, inclusive.",
    )
    ordering = Ordering(
        {"createdAt": "created_at", "lastName": "last_name", "firstName": "first_name"},
        default="-createdAt",
        help_text="`-createdAt` (default), `lastName`, `firstName`.",
    )

    def search(self, queryset, name, term):
        return queryset.alias(search_text=SEARCH_TEXT).filter(search_text__icontains=term)


class PipelineStageFilterSet(PlatformFilterSet):
    order_by = ("position", "id")


class ContactSourceFilterSet(PlatformFilterSet):
    order_by = ("-created_at", "-id")
