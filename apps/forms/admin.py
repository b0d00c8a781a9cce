"""Forms and their answers in the admin, for the organization's staff only, read-only: forms are edited through the
API (where every write records its event), and answers are what visitors sent. The admin is the only place answers
are shown."""

from django.contrib import admin
from django.utils.html import format_html_join

from apps.organizations.admin_scoping import OrganizationScopedAdmin, ViewOnlyAdminMixin

from .models import Form, FormSubmission
from .resources import completion_count


@admin.register(Form)
class FormAdmin(ViewOnlyAdminMixin, OrganizationScopedAdmin):
    list_display = ("name", "organization", "slug", "is_active", "completions", "created_at")
    list_filter = ("organization", "is_active")
    search_fields = ("name", "slug")
    list_select_related = ("organization",)
    exclude = ("next_question_id",)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(completions=completion_count())

    @admin.display(description="Completions", ordering="completions")
    def completions(self, form):
        return form.completions


@admin.register(FormSubmission)
class FormSubmissionAdmin(ViewOnlyAdminMixin, OrganizationScopedAdmin):
    list_display = ("form", "organization", "locale", "created_at")
    list_filter = ("organization", "form")
    list_select_related = ("form", "organization")
    date_hierarchy = "created_at"
    fields = ("form", "organization", "locale", "created_at", "answers_table")
    readonly_fields = fields

    @admin.display(description="Answers")
    def answers_table(self, submission):
        rows = [(answer.get("label", ""), _shown(answer.get("value"))) for answer in submission.answers or []]
        return format_html_join("\n", "<p><strong>{}</strong><br>{}</p>", rows)


def _shown(value) -> str:
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    if value is True:
        return "Yes"
    if value is False or value is None:
        return "—" if value is None else "No"
    return str(value)
