"""The marketplace operations in the served OpenAPI document."""

import pytest

OPERATIONS = {
    ("/v1/public/search/clubs", "get"): ("marketplace_search_clubs", None, "ClubListingPage"),
    ("/v1/public/network/clubs/{slug}", "get"): ("marketplace_club_get", None, "ClubProfile"),
    ("/v1/public/network/search/offers", "post"): ("marketplace_search_offers", "OfferSearchRequest", "OfferPage"),
}


@pytest.fixture
def document(db, public):
    return public.get("/v1/openapi.json").json()


def test_the_three_operations_without_security(document):
    assert "security" not in document
    public_paths = {path for path in document["paths"] if path.startswith("/v1/public/")}
    assert public_paths == {path for path, _ in OPERATIONS}
    for (path, method), (operation_id, request, response) in OPERATIONS.items():
        operation = document["paths"][path][method]
        assert operation["operationId"] == operation_id
        assert not operation.get("security")
        assert "x-required-scope" not in operation
        ok = operation["responses"]["200"]["content"]["application/json"]["schema"]
        assert ok == {"$ref": f"#/components/schemas/{response}"}
        for status in ("400", "429", "500"):
            error = operation["responses"][status]["content"]["application/json"]["schema"]
            assert error == {"$ref": "#/components/schemas/MarketplaceError"}
        if request:
            body = operation["requestBody"]["content"]["application/json"]["schema"]
            assert body == {"$ref": f"#/components/schemas/{request}"}
    offers = document["components"]["schemas"]["OfferSearchRequest"]
    assert offers["required"] == ["date"]
    assert document["components"]["schemas"]["OfferDurationEnum"]["enum"] == [30, 60, 90, 120]
    assert set(document["components"]["schemas"]["Offer"]["required"]) == {
        "clubSlug", "clubName", "areaId", "areaName", "sport", "date", "time", "durationMinutes", "price",
        "currency", "timezone", "url",
    }  # fmt: skip
