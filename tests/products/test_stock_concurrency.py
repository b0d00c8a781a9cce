"""Concurrent stock adjustments on real parallel PostgreSQL connections never take the stock below zero."""

import pytest

from apps.products.models import Product
from tests.concurrency import race

URL = "/v1/platform/products"


@pytest.mark.django_db(transaction=True)
def test_twenty_parallel_decrements_of_a_stock_of_ten(organization, client_for):
    product = Product.objects.create(
        organization=organization, name="Balls", price=6, track_stock=True, stock_quantity=10
    )
    clients = [client_for("*") for _ in range(20)]  # one key each: the rate limits stay out of the way
    results = race(
        [lambda c=c: c.patch(f"{URL}/{product.id}", {"stockAdjustment": -1}, format="json") for c in clients]
    )
    statuses = sorted(r.status_code for r in results)
    assert statuses == [200] * 10 + [409] * 10, [(r.status_code, r.content[:200]) for r in results]
    assert {r.json()["code"] for r in results if r.status_code == 409} == {"CONFLICT"}
    assert {r.json()["details"]["stockQuantity"] for r in results if r.status_code == 409} == {0}
    assert sorted(r.json()["stockQuantity"] for r in results if r.status_code == 200) == list(range(10))
    product.refresh_from_db()
    assert product.stock_quantity == 0


@pytest.mark.django_db(transaction=True)
def test_parallel_receipts_and_sales_all_count(organization, client_for):
    product = Product.objects.create(
        organization=organization, name="Grip", price=3, track_stock=True, stock_quantity=10
    )
    clients = [client_for("*") for _ in range(10)]
    deltas = [3, -2] * 5  # +15 -10: every one fits whatever the order, since the stock starts at 10
    results = race(
        [
            lambda c=c, d=d: c.patch(f"{URL}/{product.id}", {"stockAdjustment": d}, format="json")
            for c, d in zip(clients, deltas, strict=True)
        ]
    )
    assert [r.status_code for r in results] == [200] * 10
    product.refresh_from_db()
    assert product.stock_quantity == 15
