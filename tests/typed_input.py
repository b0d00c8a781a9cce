"""Typed input (decisions/foundation-api.md #21): the messages a value of the wrong JSON type gets, and the one
assertion every typed-input test makes on the answer."""

BOOL = "Must be `true` or `false`."
NUMBER = "Must be a number."
INTEGER = "Must be an integer."
STRING = "Must be a string."
INT_ID = "Must be an integer id."


def assert_rejected(response, field, message):
    """400 VALIDATION_ERROR naming `field` with exactly `message`."""
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    assert body["details"]["fields"][field] == [message], body
