"""The products admin shows staff only their own organization's products and categories."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.forms import ModelChoiceField
from django.test import Client

from apps.clubs.models import Club
from apps.organizations.models import StaffMembership
from apps.products.models import Product, ProductCategory

pytestmark = pytest.mark.django_db


def _rows(organization, tag):
    category = ProductCategory.objects.create(organization=organization, name=f"{tag} Drinks")
    club = Club.objects.create(organization=organization, name=f"{tag} Club", slug=f"{tag.lower()}-c", timezone="UTC")
    product = Product.objects.create(
        organization=organization, category=category, club=club, name=f"{tag} Water", sku=f"{tag}-1", price=1
    )
    return category, product


@pytest.fixture
def staff(organization):
    user = get_user_model().objects.create_user("desk@example.com", "desk@example.com", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label__in=("products", "clubs")))
    StaffMembership.objects.create(user=user, organization=organization, role="staff")
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("model", ["product", "productcategory"])
def test_staff_see_only_their_rows(staff, organization, other_organization, model):
    ours = dict(zip(("productcategory", "product"), _rows(organization, "Alpha"), strict=True))
    theirs = dict(zip(("productcategory", "product"), _rows(other_organization, "Bravo"), strict=True))
    response = staff.get(f"/admin/products/{model}/")
    assert response.status_code == 200
    assert [row.pk for row in response.context["cl"].result_list] == [ours[model].pk]
    assert "Bravo" not in response.content.decode()
    assert staff.get(f"/admin/products/{model}/{theirs[model].pk}/change/").status_code == 302
    response = staff.get(f"/admin/products/{model}/{ours[model].pk}/change/")
    assert response.status_code == 200
    for name, field in response.context["adminform"].form.fields.items():
        if isinstance(field, ModelChoiceField):
            assert other_organization.pk not in {getattr(row, "organization_id", None) for row in field.queryset}, name
