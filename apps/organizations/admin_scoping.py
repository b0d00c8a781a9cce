"""The one tenancy rule every admin of organization-owned rows uses.

Superusers see everything. Any other staff user sees, picks and saves only rows of the organizations in which they
hold a `StaffMembership` (any role); Django's model permissions still decide which models and actions they get.
The rule covers the list and change pages (querysets), the choices of foreign keys in forms and inlines (selects
and raw-id inputs alike), the related list filters (only names present in the user's own rows) and search (which
runs on the scoped list). A row and every organization-owned row it points to must belong to one organization.
"""

from django import forms
from django.contrib import admin
from django.contrib.admin.utils import NotRelationField, get_fields_from_path
from django.contrib.admin.widgets import ForeignKeyRawIdWidget
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models
from django.forms.models import InlineForeignKeyField

from .models import Organization

DIFFERENT_ORGANIZATION_MESSAGE = "Belongs to another organization than the rest of this row."


def staff_organization_ids(request) -> frozenset[int]:
    """Ids of the organizations in which the signed-in user holds a staff membership (cached on the request)."""
    if not hasattr(request, "_staff_organization_ids"):
        request._staff_organization_ids = frozenset(
            request.user.staff_memberships.values_list("organization_id", flat=True)
        )
    return request._staff_organization_ids


def is_organization_owned(model) -> bool:
    try:
        field = model._meta.get_field("organization")
    except FieldDoesNotExist:
        return False
    return field.is_relation and field.related_model is Organization


def organization_id_of(value):
    """The organization a model instance belongs to, or None for rows shared by every organization."""
    if isinstance(value, Organization):
        return value.pk
    if isinstance(value, models.Model) and is_organization_owned(type(value)):
        return value.organization_id
    return None


def scope_to_user(queryset, request):
    """`queryset` limited to the user's organizations; unchanged for superusers and for shared catalogues."""
    if request.user.is_superuser:
        return queryset
    if queryset.model is Organization:
        return queryset.filter(pk__in=staff_organization_ids(request))
    if is_organization_owned(queryset.model):
        return queryset.filter(organization_id__in=staff_organization_ids(request))
    return queryset


class ScopedForeignKeyRawIdWidget(ForeignKeyRawIdWidget):
    """A raw-id input that names the chosen row only when it is one of the allowed choices.

    The stock widget labels any id it is given, so re-rendering a refused form would print another
    organization's row (a contact's name, say) next to the id that was typed in.
    """

    def __init__(self, rel, admin_site, *, choices, **kwargs):
        super().__init__(rel, admin_site, **kwargs)
        self.allowed_choices = choices

    def label_and_url_for_value(self, value):
        key = self.rel.get_related_field().name
        try:
            allowed = self.allowed_choices.filter(**{key: value}).exists()
        except (ValueError, ValidationError):
            return "", ""
        return super().label_and_url_for_value(value) if allowed else ("", "")


def https_url_formfield(db_field, **kwargs):
    """A model field's form field, URLs defaulting to `https://` when typed without a scheme (Django 6's default;
    opting in explicitly also keeps Django 5.x from warning about the coming change)."""
    if isinstance(db_field, models.URLField):
        kwargs.setdefault("assume_scheme", "https")
    return db_field.formfield(**kwargs)


class OrganizationScopedForm(forms.ModelForm):
    """Refuses a row whose organization-owned references belong to different organizations."""

    def clean(self):
        cleaned = super().clean()
        owners = {
            name: owner
            for name, value in cleaned.items()
            if value is not None and (owner := organization_id_of(value)) is not None
        }
        if len(set(owners.values())) > 1:
            # Judge against the row's own organization, or in an inline against the parent row, so that the
            # error lands on a field the user can see and change.
            parents = [name for name in owners if isinstance(self.fields.get(name), InlineForeignKeyField)]
            anchor = "organization" if "organization" in owners else (parents or list(owners))[0]
            for name, owner in owners.items():
                if owner != owners[anchor]:
                    self.add_error(name, DIFFERENT_ORGANIZATION_MESSAGE)
        return cleaned


class OrganizationScopingMixin:
    """Querysets and foreign-key choices limited to the user's organizations; shared by admins and inlines."""

    form = OrganizationScopedForm
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}  # see https_url_formfield

    def get_queryset(self, request):
        return scope_to_user(super().get_queryset(request), request)

    def scope_choices(self, db_field, request, kwargs) -> None:
        """The choices of a relation field: Django's own (ordering, `limit_choices_to`) limited to the user's rows."""
        if "queryset" not in kwargs:
            db = kwargs.get("using")
            queryset = self.get_field_queryset(db, db_field, request)
            if queryset is None:
                queryset = db_field.remote_field.model._default_manager.using(db)
            kwargs["queryset"] = scope_to_user(queryset, request)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        self.scope_choices(db_field, request, kwargs)
        if "widget" not in kwargs and db_field.name in self.raw_id_fields:
            kwargs["widget"] = ScopedForeignKeyRawIdWidget(
                db_field.remote_field, self.admin_site, choices=kwargs["queryset"], using=kwargs.get("using")
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        self.scope_choices(db_field, request, kwargs)
        return super().formfield_for_manytomany(db_field, request, **kwargs)


class OrganizationScopedAdmin(OrganizationScopingMixin, admin.ModelAdmin):
    """The base of every admin of organization-owned rows."""

    def get_list_filter(self, request):
        return [self._related_only(entry) for entry in super().get_list_filter(request)]

    def _related_only(self, entry):
        # A plain related filter lists every row of the related table, i.e. every tenant's names.
        if isinstance(entry, str):
            try:
                field = get_fields_from_path(self.model, entry)[-1]
            except (FieldDoesNotExist, NotRelationField):
                return entry
            if field.is_relation:
                return (entry, admin.RelatedOnlyFieldListFilter)
        return entry

    def save_formset(self, request, form, formset, change):
        if is_organization_owned(formset.model):
            for inline_form in formset.forms:
                if inline_form.instance and not inline_form.instance.organization_id:
                    inline_form.instance.organization_id = form.instance.organization_id
        super().save_formset(request, form, formset, change)


class OrganizationScopedTabularInline(OrganizationScopingMixin, admin.TabularInline):
    """The base of every inline of organization-owned rows."""


class ViewOnlyAdminMixin:
    """Shown, never added, changed or deleted in the admin: rows that only the services write."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SuperuserWritesAdminMixin:
    """Rows shared by every organization (the amenity catalogue): only a superuser adds, changes or deletes them."""

    def has_add_permission(self, request, obj=None):
        return request.user.is_superuser

    def has_change_permission(self, request, obj=None):
        return request.user.is_superuser

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser
