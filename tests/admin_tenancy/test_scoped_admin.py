"""Admin tenancy through the admin's real views: a staff user of one organization, holding every model permission,
never sees, picks or saves another organization's rows."""

import pytest
from django.contrib import admin
from django.forms import ModelChoiceField

from apps.bookings.models import Booking, Player
from apps.clubs.models import Area
from apps.instructors.models import Instructor
from apps.organizations.admin_scoping import (
    OrganizationScopedAdmin,
    OrganizationScopedTabularInline,
    is_organization_owned,
    organization_id_of,
)
from apps.organizations.models import ApiKey, Organization

from .forms import submitted_fields

pytestmark = pytest.mark.django_db

ADMIN_MODELS = [
    ("clubs", "club"),
    ("clubs", "areatype"),
    ("clubs", "area"),
    ("occupancy", "areablock"),
    ("clubs", "clubreview"),
    ("bookings", "booking"),
    ("bookings", "waitlistentry"),
    ("bookings", "checkin"),
    ("billing", "revenueaccount"),
    ("billing", "plancategory"),
    ("billing", "plan"),
    ("memberships", "membership"),
    ("instructors", "instructortype"),
    ("instructors", "payratepolicy"),
    ("instructors", "instructor"),
    ("events", "event"),
]
ids = [f"{app}.{model}" for app, model in ADMIN_MODELS]
NOT_FOUND_MESSAGE = "doesn’t exist. Perhaps it was deleted?"


def foreign_names_absent(html, theirs, other_organization):
    return theirs.tag not in html and other_organization.name not in html


def foreign_row_for(model, theirs, other_organization):
    """The other organization's row of `model`, to name in a foreign key."""
    if model is Organization:
        return other_organization
    for value in vars(theirs).values():
        if type(value) is model:
            return value
    raise AssertionError(f"no foreign {model.__name__} row")


@pytest.mark.parametrize(("app", "model"), ADMIN_MODELS, ids=ids)
def test_changelist_lists_only_our_rows_and_our_names(staff, ours, theirs, other_organization, app, model):
    response = staff.get(f"/admin/{app}/{model}/")
    assert response.status_code == 200
    assert [row.pk for row in response.context["cl"].result_list] == [ours.of(model).pk]
    html = response.content.decode()
    assert ours.tag in html or model in ("booking", "waitlistentry", "checkin", "clubreview", "membership")
    assert foreign_names_absent(html, theirs, other_organization)  # rows and list filters alike


@pytest.mark.parametrize(("app", "model"), ADMIN_MODELS, ids=ids)
def test_foreign_row_by_url_is_missing(staff, ours, theirs, app, model):
    assert staff.get(f"/admin/{app}/{model}/{ours.of(model).pk}/change/").status_code == 200
    for view in ("change", "delete", "history"):
        response = staff.get(f"/admin/{app}/{model}/{theirs.of(model).pk}/{view}/", follow=True)
        assert response.redirect_chain == [("/admin/", 302)], view
        assert NOT_FOUND_MESSAGE in response.content.decode(), view


@pytest.mark.parametrize(("app", "model"), ADMIN_MODELS, ids=ids)
@pytest.mark.parametrize("page", ["add", "change"])
def test_form_choices_offer_only_our_rows(staff, ours, theirs, other_organization, app, model, page):
    url = f"/admin/{app}/{model}/add/" if page == "add" else f"/admin/{app}/{model}/{ours.of(model).pk}/change/"
    response = staff.get(url)
    assert response.status_code == 200
    forms = [response.context["adminform"].form]
    forms += [inline.formset.empty_form for inline in response.context["inline_admin_formsets"]]
    for form in forms:
        for name, field in form.fields.items():
            # An inline's hidden `id` is matched against the parent's own rows when saving, whatever it lists.
            if isinstance(field, ModelChoiceField) and name != "id":
                owners = {organization_id_of(row) for row in field.queryset}
                assert other_organization.pk not in owners, name
    assert foreign_names_absent(response.content.decode(), theirs, other_organization)


def test_area_inline_offers_only_our_area_types(staff, ours, theirs):
    response = staff.get(f"/admin/clubs/club/{ours.club.pk}/change/")
    area_types = response.context["inline_admin_formsets"][0].formset.empty_form.fields["area_type"].queryset
    assert list(area_types) == [ours.area_type]


def foreign_key_fields(response, model):
    """`(posted name, related model)` of every organization-owned foreign key in the page's form and inlines."""
    forms = [response.context["adminform"].form]
    forms += [form for inline in response.context["inline_admin_formsets"] for form in inline.formset.forms]
    for form in forms:
        for name, field in form.fields.items():
            related = getattr(field, "queryset", None)
            if related is None or name == "id" or field.disabled:
                continue
            if is_organization_owned(related.model) or related.model is Organization:
                yield form.add_prefix(name), related.model


@pytest.mark.parametrize(("app", "model"), ADMIN_MODELS, ids=ids)
def test_saving_a_foreign_reference_is_a_form_error(staff, ours, theirs, other_organization, app, model):
    url = f"/admin/{app}/{model}/{ours.of(model).pk}/change/"
    page = staff.get(url)
    unchanged = submitted_fields(page, model)
    references = list(foreign_key_fields(page, model))
    assert references
    row = ours.of(model)
    before = {f.attname: getattr(row, f.attname) for f in type(row)._meta.concrete_fields if f.name != "updated_at"}
    for posted_name, related_model in references:
        foreign = foreign_row_for(related_model, theirs, other_organization)
        response = staff.post(url, {**unchanged, posted_name: str(foreign.pk)})
        assert response.status_code == 200, posted_name  # the form again, not a redirect after saving
        assert "Select a valid choice" in response.content.decode(), posted_name
        assert foreign_names_absent(response.content.decode(), theirs, other_organization), posted_name
        row.refresh_from_db()
        assert {name: getattr(row, name) for name in before} == before, posted_name
    assert staff.post(url, unchanged).status_code == 302  # the unchanged form saves


def test_inline_rows_are_saved_for_our_organization_only(staff, ours, theirs):
    url = f"/admin/clubs/club/{ours.club.pk}/change/"
    data = submitted_fields(staff.get(url), "club")
    new_row = {"areas-1-name": "Court 2", "areas-1-sports": "[]", "areas-1-position": "1", "areas-TOTAL_FORMS": "2"}
    refused = staff.post(url, {**data, **new_row, "areas-1-area_type": str(theirs.area_type.pk)})
    assert refused.status_code == 200 and "Select a valid choice" in refused.content.decode()
    assert not Area.objects.filter(name="Court 2").exists()

    assert staff.post(url, {**data, **new_row, "areas-1-area_type": str(ours.area_type.pk)}).status_code == 302
    assert Area.objects.get(name="Court 2").organization_id == ours.club.organization_id


def test_inline_cannot_delete_a_foreign_row(staff, ours, theirs):
    url = f"/admin/bookings/booking/{ours.booking.pk}/change/"
    data = submitted_fields(staff.get(url), "booking")
    staff.post(url, {**data, "players-0-id": str(theirs.player.pk), "players-0-DELETE": "on"})
    assert Player.objects.filter(pk=theirs.player.pk).exists()


def test_search_runs_on_our_rows_only(staff, ours, theirs):
    response = staff.get("/admin/bookings/booking/", {"q": "bravo"})
    assert response.status_code == 200 and list(response.context["cl"].result_list) == []
    response = staff.get("/admin/bookings/booking/", {"q": "alpha"})
    assert list(response.context["cl"].result_list) == [ours.booking]


def test_bulk_delete_skips_foreign_rows(staff, ours, theirs):
    response = staff.post(
        "/admin/instructors/instructor/",
        {"action": "delete_selected", "_selected_action": [theirs.instructor.pk], "post": "yes"},
    )
    assert response.status_code in (200, 302)
    assert Instructor.objects.filter(pk=theirs.instructor.pk).exists()


def test_superuser_cannot_mix_organizations_in_one_row(superuser, ours, theirs):
    url = f"/admin/bookings/booking/{ours.booking.pk}/change/"
    data = submitted_fields(superuser.get(url), "booking")
    response = superuser.post(url, {**data, "contact": str(theirs.contact.pk)})
    assert response.status_code == 200
    assert "Belongs to another organization than the rest of this row." in response.content.decode()
    assert Booking.objects.get(pk=ours.booking.pk).contact_id == ours.contact.pk


def test_superuser_still_sees_every_organization(superuser, ours, theirs):
    response = superuser.get("/admin/bookings/booking/")
    assert {row.pk for row in response.context["cl"].result_list} == {ours.booking.pk, theirs.booking.pk}


def test_every_admin_of_organization_data_is_scoped():
    unscoped = []
    for model, model_admin in admin.site._registry.items():
        if not is_organization_owned(model) or model is ApiKey:  # keys: scoped to settings managers instead
            continue
        if not isinstance(model_admin, OrganizationScopedAdmin):
            unscoped.append(model.__name__)
        for inline in model_admin.inlines:
            if is_organization_owned(inline.model) and not issubclass(inline, OrganizationScopedTabularInline):
                unscoped.append(inline.__name__)
    assert unscoped == []
