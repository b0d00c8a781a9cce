"""The envelope of an event, as webhooks send it and the event feed lists it, with `data` narrowed to a reader's
scopes by the shape the catalogue declares for its type."""

from apps.api.resources import redact

from .catalogue import EVENT_TYPES


def envelope(event, scopes) -> dict:
    """`{id, type, createdAt, organizationId, data, changedFields?}`; `changedFields` on `*.updated` only."""
    event_type = EVENT_TYPES.get(event.type)
    data = redact(event_type.shape, event.data, scopes) if event_type is not None else event.data
    body = {
        "id": event.id,
        "type": event.type,
        "createdAt": event.created_at,
        "organizationId": event.organization_id,
        "data": data,
    }
    if event.type.endswith(".updated"):
        body["changedFields"] = list(event.changed_fields or [])
    return body
