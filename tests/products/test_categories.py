"""Product categories through the HTTP API."""

from apps.products.models import Product, ProductCategory

URL = "/v1/platform/product-categories"


def test_category_crud(api, organization):
    response = api.post(URL, {"name": "Drinks", "description": "Cold", "position": 2}, format="json")
    assert response.status_code == 201, response.content
    category = ProductCategory.objects.get(organization=organization)
    body = response.json()
    assert body == {
        "id": category.id,
        "name": "Drinks",
        "description": "Cold",
        "position": 2,
        "translations": {},
        "createdAt": body["createdAt"],
        "updatedAt": body["updatedAt"],
    }
    assert response["Location"] == f"{URL}/{category.id}"
    assert api.get(f"{URL}/{category.id}").json() == body
    assert api.get(URL).json() == {"data": [body], "total": 1, "limit": 50, "offset": 0}

    patched = api.patch(f"{URL}/{category.id}", {"description": None, "position": 0}, format="json")
    assert patched.status_code == 200
    assert (patched.json()["description"], patched.json()["position"], patched.json()["name"]) == (None, 0, "Drinks")


def test_category_validation(api):
    assert api.post(URL, {"description": "x"}, format="json").json()["details"]["fields"].keys() == {"name"}
    assert api.post(URL, {"name": "x" * 121}, format="json").status_code == 400
    assert api.post(URL, {"name": "x" * 120}, format="json").status_code == 201
    assert api.post(URL, {"name": "A", "position": -1}, format="json").status_code == 400
    assert api.post(URL, {"name": "A", "description": "d" * 5001}, format="json").status_code == 400


def test_categories_have_no_delete(api, organization):
    category = ProductCategory.objects.create(organization=organization, name="Drinks")
    assert api.delete(f"{URL}/{category.id}").status_code == 405
    assert ProductCategory.objects.filter(pk=category.pk).exists()


def test_ordering_and_locale(api, organization):
    first = ProductCategory.objects.create(organization=organization, name="b", position=1)
    second = ProductCategory.objects.create(
        organization=organization, name="A", position=0, translations={"es": {"name": "Ä"}}
    )
    assert [r["id"] for r in api.get(URL).json()["data"]] == [second.id, first.id]
    assert [r["id"] for r in api.get(URL, {"ordering": "position"}).json()["data"]] == [second.id, first.id]
    assert [r["id"] for r in api.get(URL, {"ordering": "-name"}).json()["data"]] == [first.id, second.id]
    assert api.get(f"{URL}/{second.id}", {"locale": "es"}).json()["name"] == "Ä"


def test_another_organizations_category_is_404(api, other_organization):
    category = ProductCategory.objects.create(organization=other_organization, name="Theirs")
    assert api.get(f"{URL}/{category.id}").status_code == 404
    assert api.patch(f"{URL}/{category.id}", {"name": "Mine"}, format="json").status_code == 404


def test_products_need_the_products_scopes(client_for, organization):
    product = Product.objects.create(organization=organization, name="Water", price=1)
    writer = client_for("products:write")
    response = writer.get(f"/v1/platform/products/{product.id}")
    assert response.status_code == 403
    assert response.json() == {"error": "Insufficient access scope", "requiredScope": "products:read"}
    assert writer.patch(f"/v1/platform/products/{product.id}", {"isActive": False}, format="json").status_code == 200
    reader = client_for("products:read")
    assert reader.patch(f"/v1/platform/products/{product.id}", {}, format="json").status_code == 403
