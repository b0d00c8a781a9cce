"""Products through the HTTP API: every field, bounds at their edges, stock rules, filters, locale, tenancy."""

from decimal import Decimal

import pytest

from apps.billing.models import RevenueAccount
from apps.clubs.models import Club
from apps.products.models import Product, ProductCategory

URL = "/v1/platform/products"


def _create(api, **body):
    body = {"name": "Water", "price": 1.5, **body}
    return api.post(URL, body, format="json")


def _fields(response):
    return response.json()["details"]["fields"]


def test_create_presents_every_field_and_stores_decimal_money(api, organization, club):
    category = ProductCategory.objects.create(organization=organization, name="Drinks")
    account = RevenueAccount.objects.create(organization=organization, name="Bar")
    response = _create(
        api,
        description="50 cl",
        categoryId=category.id,
        clubId=club.id,
        sku="DRK-1",
        price=1.55,
        revenueAccountId=account.id,
        trackStock=True,
        stockQuantity=12,
        visibility="Member_only",
        images=["https://example.com/w.png"],
    )
    assert response.status_code == 201, response.content
    product = Product.objects.get(organization=organization)
    body = response.json()
    assert body == {
        "id": product.id,
        "name": "Water",
        "description": "50 cl",
        "categoryId": category.id,
        "category": {"id": category.id, "name": "Drinks"},
        "clubId": club.id,
        "sku": "DRK-1",
        "price": 1.55,
        "revenueAccountId": account.id,
        "trackStock": True,
        "stockQuantity": 12,
        "isActive": True,
        "visibility": "Member_only",
        "images": ["https://example.com/w.png"],
        "translations": {},
        "createdAt": body["createdAt"],
        "updatedAt": body["updatedAt"],
    }
    assert response["Location"] == f"{URL}/{product.id}"
    assert product.price == Decimal("1.55") and product.stock_quantity == 12
    assert api.get(f"{URL}/{product.id}").json() == body


def test_defaults_without_stock_tracking(api):
    body = _create(api).json()
    assert body["trackStock"] is False and body["stockQuantity"] is None
    assert body["visibility"] == "Public" and body["isActive"] is True
    assert body["category"] is None and body["sku"] is None and body["revenueAccountId"] is None
    assert body["images"] == []


def test_tracking_without_a_quantity_starts_at_zero(api):
    assert _create(api, trackStock=True).json()["stockQuantity"] == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "Water"}, "price"),
        ({"price": 1}, "name"),
        ({"name": "x" * 121, "price": 1}, "name"),
        ({"name": "W", "price": -0.01}, "price"),
        ({"name": "W", "price": "1.50"}, "price"),
        ({"name": "W", "price": 1.555}, "price"),
        ({"name": "W", "price": 1, "description": "x" * 5001}, "description"),
        ({"name": "W", "price": 1, "sku": "x" * 65}, "sku"),
        ({"name": "W", "price": 1, "trackStock": "true"}, "trackStock"),
        ({"name": "W", "price": 1, "trackStock": True, "stockQuantity": -1}, "stockQuantity"),
        ({"name": "W", "price": 1, "trackStock": True, "stockQuantity": "5"}, "stockQuantity"),
        ({"name": "W", "price": 1, "stockQuantity": 5}, "stockQuantity"),
        ({"name": "W", "price": 1, "visibility": "public"}, "visibility"),
        ({"name": "W", "price": 1, "images": ["not a url"]}, "images"),
        ({"name": "W", "price": 1, "images": ["https://example.com/a.png"] * 21}, "images"),
        ({"name": "W", "price": 1, "revenueAccountId": 0}, "revenueAccountId"),
        ({"name": "W", "price": 1, "categoryId": "1"}, "categoryId"),
    ],
)
def test_create_rejects_bad_values(api, body, field):
    response = api.post(URL, body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert {name.split(".")[0] for name in _fields(response)} == {field}
    assert not Product.objects.exists()


def test_bounds_accept_their_edges(api):
    response = _create(api, name="x" * 120, description="d" * 5000, sku="s" * 64, price=0)
    assert response.status_code == 201, response.content
    images = ["https://example.com/a.png"] * 20
    assert _create(api, images=images, trackStock=True, stockQuantity=0).status_code == 201


def test_ids_of_another_organization_are_400(api, other_organization):
    category = ProductCategory.objects.create(organization=other_organization, name="Theirs")
    club = Club.objects.create(organization=other_organization, name="Theirs", slug="theirs", timezone="UTC")
    response = _create(api, categoryId=category.id, clubId=club.id)
    assert response.status_code == 400
    assert set(_fields(response)) == {"categoryId", "clubId"}


def test_another_organizations_product_is_404(api, other_organization):
    product = Product.objects.create(organization=other_organization, name="Theirs", price=1)
    assert api.get(f"{URL}/{product.id}").status_code == 404
    assert api.patch(f"{URL}/{product.id}", {"name": "Mine"}, format="json").status_code == 404
    product.refresh_from_db()
    assert product.name == "Theirs"


def test_sku_is_unique_per_organization(api, other_organization):
    Product.objects.create(organization=other_organization, name="Theirs", price=1, sku="SKU-1")
    first = _create(api, sku="SKU-1").json()
    response = _create(api, sku="SKU-1")
    assert response.status_code == 409
    assert response.json()["code"] == "DUPLICATE_VALUE"
    assert response.json()["details"] == {"field": "sku", "existingId": first["id"]}
    other = _create(api, sku="SKU-2").json()
    clash = api.patch(f"{URL}/{other['id']}", {"sku": "SKU-1"}, format="json")
    assert clash.status_code == 409 and clash.json()["details"]["existingId"] == first["id"]
    # blank clears it; many products may have none
    assert api.patch(f"{URL}/{other['id']}", {"sku": " "}, format="json").json()["sku"] is None
    assert _create(api, sku=None).status_code == 201


def test_patch_changes_only_what_is_sent_and_null_clears(api, organization):
    category = ProductCategory.objects.create(organization=organization, name="Drinks")
    account = RevenueAccount.objects.create(organization=organization, name="Bar")
    product = _create(api, categoryId=category.id, description="Cold", revenueAccountId=account.id).json()
    response = api.patch(
        f"{URL}/{product['id']}",
        {"categoryId": None, "description": None, "revenueAccountId": None, "price": 2},
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["category"] is None and body["categoryId"] is None and body["description"] is None
    assert body["revenueAccountId"] is None and body["price"] == 2.0 and body["name"] == "Water"
    for field in ("name", "price", "trackStock", "isActive"):
        bad = api.patch(f"{URL}/{product['id']}", {field: None}, format="json")
        assert bad.status_code == 400 and field in _fields(bad)


def test_no_delete_deactivate_instead(api):
    product = _create(api).json()
    response = api.delete(f"{URL}/{product['id']}")
    assert response.status_code == 405
    assert "DELETE" not in response["Allow"]
    assert Product.objects.filter(pk=product["id"]).exists()
    assert api.patch(f"{URL}/{product['id']}", {"isActive": False}, format="json").json()["isActive"] is False


# --- stock --------------------------------------------------------------------------------------------------------


def test_stock_adjustments_add_and_take_down_to_exactly_zero(api):
    product = _create(api, trackStock=True, stockQuantity=2).json()
    url = f"{URL}/{product['id']}"
    assert api.patch(url, {"stockAdjustment": 10}, format="json").json()["stockQuantity"] == 12
    assert api.patch(url, {"stockAdjustment": -12}, format="json").json()["stockQuantity"] == 0
    response = api.patch(url, {"stockAdjustment": -1, "name": "Renamed"}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "CONFLICT"
    assert response.json()["details"] == {"stockQuantity": 0, "stockAdjustment": -1}
    stored = Product.objects.get(pk=product["id"])
    assert stored.stock_quantity == 0 and stored.name == "Water"  # nothing of the refused PATCH applied


def test_stock_quantity_sets_the_count(api):
    product = _create(api, trackStock=True, stockQuantity=5).json()
    url = f"{URL}/{product['id']}"
    assert api.patch(url, {"stockQuantity": 0}, format="json").json()["stockQuantity"] == 0
    response = api.patch(url, {"stockQuantity": 3, "stockAdjustment": 1}, format="json")
    assert response.status_code == 400 and "stockAdjustment" in _fields(response)
    response = api.patch(url, {"stockQuantity": None}, format="json")
    assert response.status_code == 400 and "stockQuantity" in _fields(response)
    assert api.patch(url, {"stockQuantity": -1}, format="json").status_code == 400


def test_adjustment_bounds(api):
    product = _create(api, trackStock=True, stockQuantity=1).json()
    url = f"{URL}/{product['id']}"
    response = api.patch(url, {"stockAdjustment": 2**31 - 1}, format="json")
    assert response.status_code == 400 and "stockAdjustment" in _fields(response)
    assert api.patch(url, {"stockAdjustment": "1"}, format="json").status_code == 400
    assert api.patch(url, {"stockAdjustment": 1.0}, format="json").status_code == 400
    assert Product.objects.get(pk=product["id"]).stock_quantity == 1


def test_untracked_products_count_no_stock(api):
    product = _create(api).json()
    url = f"{URL}/{product['id']}"
    response = api.patch(url, {"stockAdjustment": -1}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "CONFLICT"
    response = api.patch(url, {"stockQuantity": 4}, format="json")
    assert response.status_code == 400 and "stockQuantity" in _fields(response)
    # turning tracking on with a count, then off again clears the count
    assert api.patch(url, {"trackStock": True, "stockQuantity": 4}, format="json").json()["stockQuantity"] == 4
    body = api.patch(url, {"trackStock": False}, format="json").json()
    assert body["trackStock"] is False and body["stockQuantity"] is None
    assert api.patch(url, {"trackStock": True}, format="json").json()["stockQuantity"] == 0


# --- list ---------------------------------------------------------------------------------------------------------


def _ids(response):
    assert response.status_code == 200, response.content
    return [row["id"] for row in response.json()["data"]]


def test_list_filters(api, organization, club):
    drinks = ProductCategory.objects.create(organization=organization, name="Drinks")
    water = Product.objects.create(
        organization=organization,
        name="Water",
        sku="DRK-W",
        price=1,
        category=drinks,
        club=club,
        track_stock=True,
        stock_quantity=5,
    )
    sold_out = Product.objects.create(
        organization=organization,
        name="Isotonic",
        sku="DRK-I",
        price=2,
        category=drinks,
        track_stock=True,
        stock_quantity=0,
    )
    rental = Product.objects.create(organization=organization, name="Racket rental", sku="RNT", price=4)
    retired = Product.objects.create(organization=organization, name="Old grip", price=3, is_active=False)

    assert _ids(api.get(URL)) == [retired.id, rental.id, sold_out.id, water.id]
    assert _ids(api.get(URL, {"categoryId": drinks.id})) == [sold_out.id, water.id]
    assert _ids(api.get(URL, {"clubId": club.id})) == [water.id]
    assert _ids(api.get(URL, {"isActive": "false"})) == [retired.id]
    assert _ids(api.get(URL, {"inStock": "true"})) == [retired.id, rental.id, water.id]
    assert _ids(api.get(URL, {"inStock": "false"})) == [sold_out.id]
    assert _ids(api.get(URL, {"q": "drk-"})) == [sold_out.id, water.id]
    assert _ids(api.get(URL, {"q": "RACKET"})) == [rental.id]
    assert _ids(api.get(URL, {"ordering": "name"})) == [sold_out.id, retired.id, rental.id, water.id]
    assert _ids(api.get(URL, {"ordering": "-price"})) == [rental.id, retired.id, sold_out.id, water.id]
    assert api.get(URL, {"inStock": "true"}).json()["data"][-1]["stockQuantity"] == 5
    for name, value in (("inStock", "yes"), ("categoryId", "x"), ("isActive", "1"), ("ordering", "sku")):
        response = api.get(URL, {name: value})
        assert response.status_code == 400 and name in _fields(response), (name, response.content)


def test_locale_resolves_names_of_products_and_their_category(api, organization):
    category = ProductCategory.objects.create(
        organization=organization, name="Drinks", translations={"es": {"name": "Bebidas"}}
    )
    translations = {"es": {"name": "Agua", "description": "Fría"}}
    product = Product.objects.create(
        organization=organization,
        name="Water",
        description="Cold",
        price=1,
        category=category,
        translations=translations,
    )
    body = api.get(f"{URL}/{product.id}", {"locale": "es"}).json()
    assert (body["name"], body["description"], body["category"]["name"]) == ("Agua", "Fría", "Bebidas")
    assert body["translations"] == translations
    listed = api.get(URL, {"locale": "xx"}).json()["data"][0]
    assert (listed["name"], listed["category"]["name"]) == ("Water", "Drinks")


def test_translations_are_read_only(api):
    product = _create(api, translations={"es": {"name": "Agua"}}).json()
    assert product["translations"] == {}


def test_the_revenue_account_must_be_an_active_account_of_the_organization(api, organization, other_organization):
    foreign = RevenueAccount.objects.create(organization=other_organization, name="Theirs")
    inactive = RevenueAccount.objects.create(organization=organization, name="Old", is_active=False)
    for account_id in (foreign.id, inactive.id, 987654):
        response = _create(api, revenueAccountId=account_id)
        assert response.status_code == 400, response.content
        assert list(response.json()["details"]["fields"]) == ["revenueAccountId"]
    assert not Product.objects.exists()
