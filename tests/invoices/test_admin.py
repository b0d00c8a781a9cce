"""The invoices and transactions admins: view only, and staff see only their own organization's rows. An invoice's
page lists its lines and links to its PDF."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client

from apps.invoices.links import read_pdf_token
from apps.invoices.models import Invoice
from apps.organizations.models import StaffMembership
from apps.transactions.models import Transaction

from .factories import invoice

pytestmark = pytest.mark.django_db

NOT_FOUND_MESSAGE = "doesn’t exist. Perhaps it was deleted?"


@pytest.fixture
def staff(organization):
    """A staff user of `organization` holding every permission on invoices and transactions."""
    user = get_user_model().objects.create_user("desk@example.com", "desk@example.com", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label__in=("invoices", "transactions")))
    StaffMembership.objects.create(user=user, organization=organization, role="staff")
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def rows(organization, other_organization, contact):
    ours = invoice(organization, description="Alpha membership", contact=contact)
    theirs = invoice(other_organization, description="Bravo membership")
    return {
        "invoice": (ours, theirs),
        "transaction": (Transaction.objects.get(invoice=ours), Transaction.objects.get(invoice=theirs)),
    }


@pytest.mark.parametrize(("app", "model"), [("invoices", "invoice"), ("transactions", "transaction")])
def test_staff_see_only_their_rows(staff, rows, app, model):
    ours, theirs = rows[model]
    response = staff.get(f"/admin/{app}/{model}/")
    assert response.status_code == 200
    assert [row.pk for row in response.context["cl"].result_list] == [ours.pk]
    html = response.content.decode()
    assert "Bravo" not in html and "Rival Gym" not in html  # rows and list filters alike
    assert staff.get(f"/admin/{app}/{model}/", {"q": "bravo"}).context["cl"].result_list.count() == 0
    for view in ("change", "history"):
        response = staff.get(f"/admin/{app}/{model}/{theirs.pk}/{view}/", follow=True)
        assert response.redirect_chain == [("/admin/", 302)], view
        assert NOT_FOUND_MESSAGE in response.content.decode(), view
    assert staff.get(f"/admin/{app}/{model}/{theirs.pk}/delete/").status_code == 403  # nobody deletes here


@pytest.mark.parametrize(("app", "model"), [("invoices", "invoice"), ("transactions", "transaction")])
def test_view_only(staff, rows, app, model):
    ours, _ = rows[model]
    page = staff.get(f"/admin/{app}/{model}/{ours.pk}/change/")
    assert page.status_code == 200
    assert page.context["has_change_permission"] is False
    assert staff.get(f"/admin/{app}/{model}/add/").status_code == 403
    assert staff.post(f"/admin/{app}/{model}/{ours.pk}/delete/", {"post": "yes"}).status_code == 403
    assert type(ours).objects.filter(pk=ours.pk).exists()


def test_invoice_page_lists_its_lines_and_links_to_the_pdf(staff, rows, organization):
    ours, _ = rows["invoice"]
    page = staff.get(f"/admin/invoices/invoice/{ours.pk}/change/")
    html = page.content.decode()
    assert "Alpha membership" in html  # the line, inline
    (formset,) = page.context["inline_admin_formsets"]
    assert [form.instance.description for form in formset.formset.forms] == ["Alpha membership"]
    links = [part.split('"')[0] for part in html.split('href="/v1/invoices/pdf/')[1:]]
    assert links
    assert read_pdf_token(links[0]) == (organization.id, ours.pk, 0)
    pdf = staff.get(f"/v1/invoices/pdf/{links[0]}")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    changelist = staff.get("/admin/invoices/invoice/").content.decode()
    assert f"{ours.number}.pdf" in changelist


def test_superuser_sees_every_organization(rows):
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("root", "root@example.com"))
    response = client.get("/admin/invoices/invoice/")
    assert {row.pk for row in response.context["cl"].result_list} == {row.pk for row in rows["invoice"]}


def test_the_admin_never_changes_an_invoice(staff, rows):
    ours, _ = rows["invoice"]
    before = Invoice.objects.filter(pk=ours.pk).values().get()
    response = staff.post(f"/admin/invoices/invoice/{ours.pk}/change/", {"status": "void", "total": "0"})
    assert response.status_code == 403
    assert Invoice.objects.filter(pk=ours.pk).values().get() == before
