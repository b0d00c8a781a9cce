"""A draft sent from the admin while the API edits or deletes it, on real parallel connections: the row lock puts
them one after the other (an edit first is sent as edited, a delete first leaves nothing to send, a send first
refuses the edit or delete), and what is sent is what is stored."""

from functools import partial

import pytest
from django.core import mail

from apps.api.exceptions import ApiError
from apps.contacts.models import Contact
from apps.messaging import services
from apps.messaging.models import Message
from tests.concurrency import race

URL = "/v1/platform/messages"


def _draft(organization, contact):
    message = Message.objects.create(organization=organization, channel="email", subject="S", body="<p>Old</p>")
    message.contacts.set([contact])
    return message


@pytest.mark.django_db(transaction=True)
def test_send_and_edit_or_delete_never_both_win(organization, client_for):
    api = client_for("messages:write messages:read")
    contact = Contact.objects.create(organization=organization, first_name="Ana", email="ana@example.com")
    for round_ in range(4):
        mail.outbox.clear()
        message = _draft(organization, contact)
        url = f"{URL}/{message.pk}"
        if round_ % 2:
            edit = partial(api.patch, url, {"body": "<p>New</p>"}, format="json")
        else:
            edit = partial(api.delete, url)
        response, sent = race([edit, partial(services.start_sending, message)], catch=(ApiError,))
        stored = Message.objects.filter(pk=message.pk).first()
        if isinstance(sent, ApiError):  # the delete won: nothing was sent
            assert response.status_code == 204, response.content
            assert sent.status_code in (404, 409)
            assert mail.outbox == []
            assert stored is None
        elif response.status_code == 200:  # the edit came first: the edited draft was then sent, as stored
            assert stored.status == "sent" and stored.body == "<p>New</p>"
            assert [m.alternatives[0].content for m in mail.outbox] == ["<p>New</p>"]
        else:  # the send won: the edit is refused and the old text went out
            assert response.status_code == 409, response.content
            assert response.json()["code"] == "INVALID_STATE_TRANSITION"
            assert stored.status == "sent"
            assert [m.alternatives[0].content for m in mail.outbox] == ["<p>Old</p>"]
