"""Templates and messages in the admin. Staff see only their own organization's rows (the scoped base), edit only
drafts, and send drafts with the "Send selected draft messages" action (permission `messaging.send_message`)."""

from django.contrib import admin, messages

from apps.api.exceptions import ApiError, ValidationFailed
from apps.organizations.admin_scoping import (
    DIFFERENT_ORGANIZATION_MESSAGE,
    OrganizationScopedAdmin,
    OrganizationScopedForm,
)

from . import services
from .choices import MessageStatus
from .models import Message, MessageTemplate
from .rendering import variables_of


class TextForm(OrganizationScopedForm):
    """The API's text rules (e-mail subject, SMS length, sandboxed syntax) as form errors on their fields."""

    def clean(self):
        cleaned = super().clean()
        channel, body = cleaned.get("channel"), cleaned.get("body")
        if not channel or body is None:
            return cleaned
        try:
            cleaned["subject"] = services.check_text(channel, cleaned.get("subject"), body, subject_sent=True)
        except ValidationFailed as exc:
            for field, errors in exc.details["fields"].items():
                self.add_error(field if field in self.fields else None, errors)
        return cleaned


class MessageTemplateForm(TextForm):
    class Meta:
        model = MessageTemplate
        fields = "__all__"


class MessageForm(TextForm):
    class Meta:
        model = Message
        fields = "__all__"

    def clean(self):
        cleaned = super().clean()
        organization, template = cleaned.get("organization"), cleaned.get("template")
        if template is not None and cleaned.get("channel") and template.channel != cleaned["channel"]:
            self.add_error("template", f"The template is for `{template.channel}`; the message is not.")
        contacts = cleaned.get("contacts")
        if organization is not None and contacts is not None:
            if contacts.exclude(organization_id=organization.pk).exists():
                self.add_error("contacts", DIFFERENT_ORGANIZATION_MESSAGE)
        return cleaned


@admin.register(MessageTemplate)
class MessageTemplateAdmin(OrganizationScopedAdmin):
    form = MessageTemplateForm
    list_display = ("name", "organization", "channel", "is_active", "updated_at")
    list_filter = ("organization", "channel", "is_active")
    search_fields = ("name", "subject")
    list_select_related = ("organization",)
    readonly_fields = ("variables", "created_at", "updated_at")

    def save_model(self, request, obj, form, change):
        obj.variables = variables_of(obj.subject, obj.body)
        super().save_model(request, obj, form, change)


@admin.register(Message)
class MessageAdmin(OrganizationScopedAdmin):
    form = MessageForm
    list_display = (
        "__str__",
        "organization",
        "channel",
        "status",
        "recipients_count",
        "sent_count",
        "failed_count",
        "sent_at",
    )
    list_filter = ("organization", "status", "channel")
    search_fields = ("subject", "body")
    list_select_related = ("organization",)
    filter_horizontal = ("contacts",)
    readonly_fields = (
        "status",
        "recipients_count",
        "sent_count",
        "delivered_count",
        "failed_count",
        "opened_count",
        "sent_at",
        "created_at",
        "updated_at",
    )
    actions = ("send_drafts",)

    def has_change_permission(self, request, obj=None):
        """Only drafts are edited; a message being sent or sent is shown read-only."""
        if obj is not None and obj.status != MessageStatus.DRAFT:
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        if obj is not None and obj.status != MessageStatus.DRAFT:
            return False
        return super().has_delete_permission(request, obj)

    def has_send_permission(self, request):
        return request.user.has_perm(f"{self.opts.app_label}.send_message")

    @admin.action(description="Send selected draft messages", permissions=["send"])
    def send_drafts(self, request, queryset):
        started = 0
        for message in queryset.order_by("id"):
            try:
                services.start_sending(message)
            except ApiError as exc:
                self.message_user(request, f"{message}: not sent. {exc.message}", messages.ERROR)
            else:
                started += 1
        if started:
            self.message_user(
                request, f"Sending {started} message(s); their status becomes sent when every contact was tried."
            )

    def delete_queryset(self, request, queryset):
        """Bulk delete removes drafts only."""
        skipped = queryset.exclude(status=MessageStatus.DRAFT).count()
        if skipped:
            self.message_user(request, f"{skipped} message(s) not deleted: only drafts can be.", messages.WARNING)
        super().delete_queryset(request, queryset.filter(status=MessageStatus.DRAFT))
