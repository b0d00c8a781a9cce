"""Forms: public on the default website as soon as created or changed. No DELETE (405); answers never leave the
admin."""

from drf_spectacular.utils import OpenApiParameter

from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import CreateResourceMixin, ResourceViewSet, UpdateResourceMixin, Writes

from .. import services
from ..filters import FormFilterSet
from ..models import Form
from ..resources import FORM
from .serializers import FormCreateSerializer, FormUpdateSerializer

LOCALE_PARAM = OpenApiParameter(
    "locale",
    str,
    description="Language code for the name, description and question labels; falls back to the organization's "
    "default.",
)


@crud_schema_view(
    "forms",
    tags=["forms"],
    summaries={
        "list": "List forms (questions and completion counts, never answers)",
        "create": "Create a form (public at once)",
        "partial_update": "Update a form (public at once)",
    },
    descriptions={
        "create": "`name` and `questions` are required. The form's page is public at `url` as soon as it is "
        "created; there is no DELETE (set `isActive: false` to take the page down).",
        "partial_update": "`questions` replaces the list: a question sent with its `id` is kept (and so are its "
        "answers), one without an `id` is new. Answers already given are kept even when their question is "
        "removed or changed.",
    },
    parameters={"list": [LOCALE_PARAM], "retrieve": [LOCALE_PARAM]},
)
class FormViewSet(CreateResourceMixin, UpdateResourceMixin, ResourceViewSet):
    """A public form with its questions and completion count."""

    queryset = Form.objects.all()
    resource = FORM
    filterset_class = FormFilterSet
    required_scopes = crud_scopes("forms")

    write_serializer = FormCreateSerializer
    update_serializer = FormUpdateSerializer

    writes = Writes(create=services.create_form, update=services.update_form)
    present_under_update_lock = True
