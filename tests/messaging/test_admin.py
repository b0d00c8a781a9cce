"""Sending a draft from the Django admin: the staff user's own organization only, through the notification
layer's channels (Django mail, the SMS backend), rendered per contact, with the delivery counts and status then
visible through the API."""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core import mail
from django.test import Client
from django.utils import timezone

from apps.contacts.models import Contact
from apps.messaging import tasks
from apps.messaging.models import Message, MessageTemplate
from apps.notifications.channels import LoggingSmsBackend
from apps.notifications.models import NotificationDelivery
from apps.notifications.tasks import deliver_once
from apps.organizations.models import StaffMembership

LIST_URL = "/admin/messaging/message/"


@pytest.fixture(autouse=True)
def _no_sms_left_over():
    LoggingSmsBackend.sent.clear()
    yield
    LoggingSmsBackend.sent.clear()


def staff_client(organization, *, can_send=True):
    user = get_user_model().objects.create_user(
        username=f"desk-{organization.slug}-{can_send}",
        email="desk@example.com",
        password="pw-123456789",
        is_staff=True,
    )
    permissions = Permission.objects.filter(content_type__app_label="messaging")
    if not can_send:
        permissions = permissions.exclude(codename="send_message")
    user.user_permissions.set(permissions)
    StaffMembership.objects.create(user=user, organization=organization, role="staff")
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def staff(organization):
    return staff_client(organization)


@pytest.fixture
def people(organization):
    def person(first, last=None, email=None, phone=None, status="active"):
        return Contact.objects.create(
            organization=organization, first_name=first, last_name=last, email=email, phone=phone, status=status
        )

    return {
        "ana": person("Ana", "Lopez", "ana@example.com", "+34 600 000 001"),
        "bo": person("<b>Bo</b>", None, "bo@example.com", None),
        "carl": person("Carl", "Diaz", None, "+34 600 000 003"),
        "dana": person("Dana", None, "dana@example.com", "+34 600 000 004", status="archived"),
    }


def draft(organization, contacts, **fields):
    fields = {"channel": "email", "subject": "Hi {{ firstName }}", "body": "<p>Dear {{ name }},</p>", **fields}
    message = Message.objects.create(organization=organization, **fields)
    message.contacts.set(contacts)
    return message


def send(client, messages, capture):
    with capture(execute=True):
        return client.post(
            LIST_URL, {"action": "send_drafts", "_selected_action": [m.pk for m in messages]}, follow=True
        )


def page_messages(response):
    return [str(m) for m in response.context["messages"]]


def test_staff_sends_an_email_draft_rendered_per_contact(
    staff, api, organization, people, django_capture_on_commit_callbacks
):
    message = draft(organization, people.values())
    response = send(staff, [message], django_capture_on_commit_callbacks)
    assert response.status_code == 200
    assert any("Sending 1 message" in m for m in page_messages(response))

    by_address = {m.to[0]: m for m in mail.outbox}
    assert sorted(by_address) == ["ana@example.com", "bo@example.com"]  # Carl has no e-mail, Dana is archived
    ana, bo = by_address["ana@example.com"], by_address["bo@example.com"]
    assert ana.subject == "Hi Ana"
    assert ana.body == "Dear Ana Lopez,"
    assert ana.alternatives[0].content == "<p>Dear Ana Lopez,</p>"
    assert ana.alternatives[0].mimetype == "text/html"
    # the contact's data is escaped in the HTML part; the subject and the text part are plain text
    assert bo.alternatives[0].content == "<p>Dear &lt;b&gt;Bo&lt;/b&gt;,</p>"
    assert bo.subject == "Hi <b>Bo</b>"
    assert bo.body == "Dear <b>Bo</b>,"

    body = api.get(f"/v1/platform/messages/{message.pk}").json()
    assert body["status"] == "sent"
    assert body["delivery"] == {"recipients": 4, "sent": 2, "delivered": 0, "failed": 2, "opened": 0}
    assert body["sentAt"] is not None
    assert LoggingSmsBackend.sent == []


def test_staff_sends_an_sms_draft(staff, api, organization, people, django_capture_on_commit_callbacks):
    message = draft(
        organization,
        [people["ana"], people["bo"], people["carl"]],
        channel="sms",
        subject=None,
        body="{{ firstName }}, {{ organizationName }} says hi",
    )
    send(staff, [message], django_capture_on_commit_callbacks)
    assert sorted(LoggingSmsBackend.sent, key=lambda s: s["contactId"]) == [
        {"phone": "+34 600 000 001", "contactId": people["ana"].pk, "text": "Ana, Padel Palace says hi"},
        {"phone": "+34 600 000 003", "contactId": people["carl"].pk, "text": "Carl, Padel Palace says hi"},
    ]
    assert mail.outbox == []
    body = api.get(f"/v1/platform/messages/{message.pk}").json()
    assert (body["status"], body["delivery"]["sent"], body["delivery"]["failed"]) == ("sent", 2, 1)


def test_a_provider_refusal_counts_as_failed_and_the_others_are_sent(
    staff, api, organization, people, monkeypatch, django_capture_on_commit_callbacks
):
    original = LoggingSmsBackend.send

    def refuse_carl(self, *, phone, contact_id, text):
        if contact_id == people["carl"].pk:
            raise RuntimeError("provider refused the number")
        original(self, phone=phone, contact_id=contact_id, text=text)

    monkeypatch.setattr(LoggingSmsBackend, "send", refuse_carl)
    message = draft(organization, [people["ana"], people["carl"]], channel="sms", subject=None, body="Hi")
    send(staff, [message], django_capture_on_commit_callbacks)
    assert [s["contactId"] for s in LoggingSmsBackend.sent] == [people["ana"].pk]
    delivery = api.get(f"/v1/platform/messages/{message.pk}").json()["delivery"]
    assert (delivery["sent"], delivery["failed"]) == (1, 1)


def test_a_message_no_contact_could_receive_is_failed(
    staff, api, organization, people, django_capture_on_commit_callbacks
):
    message = draft(organization, [people["carl"], people["dana"]])
    send(staff, [message], django_capture_on_commit_callbacks)
    assert mail.outbox == []
    body = api.get(f"/v1/platform/messages/{message.pk}").json()
    assert body["status"] == "failed"
    assert body["delivery"] == {"recipients": 2, "sent": 0, "delivered": 0, "failed": 2, "opened": 0}


def test_delivery_runs_once(staff, organization, people, django_capture_on_commit_callbacks):
    message = draft(organization, [people["ana"]])
    send(staff, [message], django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 1
    # a second run of the task (a retry, a second worker) sends nothing more
    tasks.deliver_message.delay(message.pk)
    assert len(mail.outbox) == 1
    # and a rerun interrupted after the send (status still `sending`) does not send twice either
    Message.objects.filter(pk=message.pk).update(status="sending")
    tasks.deliver_message.delay(message.pk)
    assert len(mail.outbox) == 1
    assert NotificationDelivery.objects.filter(key=f"message:{message.pk}:{people['ana'].pk}:email").count() == 1
    message.refresh_from_db()
    assert (message.status, message.sent_count) == ("sent", 1)


def test_a_stalled_send_is_resumed_without_sending_twice(
    staff, organization, people, django_capture_on_commit_callbacks
):
    message = draft(organization, [people["ana"], people["bo"]])
    with django_capture_on_commit_callbacks(execute=False):  # the worker never picks the send up
        staff.post(LIST_URL, {"action": "send_drafts", "_selected_action": [message.pk]})
    message.refresh_from_db()
    assert message.status == "sending"
    # Ana got hers before the worker died
    deliver_once(f"message:{message.pk}:{people['ana'].pk}:email", lambda: mail.send_mail("s", "b", None, ["ana@x"]))
    assert tasks.resume_stalled_sends() == 0  # not stalled yet
    Message.objects.filter(pk=message.pk).update(updated_at=timezone.now() - dt.timedelta(minutes=11))
    assert tasks.resume_stalled_sends() == 1
    assert [m.to for m in mail.outbox] == [["ana@x"], ["bo@example.com"]]
    message.refresh_from_db()
    assert (message.status, message.sent_count, message.failed_count) == ("sent", 2, 0)
    assert tasks.resume_stalled_sends() == 0


def test_only_drafts_are_sent(staff, organization, people, django_capture_on_commit_callbacks):
    message = draft(organization, [people["ana"]])
    send(staff, [message], django_capture_on_commit_callbacks)
    response = send(staff, [message], django_capture_on_commit_callbacks)
    assert any("Only drafts can be sent" in m for m in page_messages(response))
    assert len(mail.outbox) == 1


def test_a_draft_without_recipients_or_with_unknown_variables_stays_a_draft(
    staff, organization, people, django_capture_on_commit_callbacks
):
    empty = draft(organization, [])
    unknown = draft(organization, [people["ana"]], body="Your code: {{ voucher }}")
    response = send(staff, [empty, unknown], django_capture_on_commit_callbacks)
    shown = " ".join(page_messages(response))
    assert "no recipients" in shown
    assert "`voucher`" in shown
    assert mail.outbox == []
    assert set(Message.objects.values_list("status", flat=True)) == {"draft"}


def test_staff_see_and_send_only_their_organizations_messages(
    staff, organization, other_organization, people, django_capture_on_commit_callbacks
):
    ours = draft(organization, [people["ana"]], subject="Ours {{ firstName }}")
    stranger = Contact.objects.create(organization=other_organization, first_name="Zed", email="zed@example.com")
    theirs = draft(other_organization, [stranger], subject="Theirs {{ firstName }}")
    listed = staff.get(LIST_URL)
    assert listed.status_code == 200
    assert [m.pk for m in listed.context["cl"].result_list] == [ours.pk]
    assert b"Theirs" not in listed.content
    assert staff.get(f"{LIST_URL}{theirs.pk}/change/", follow=True).redirect_chain == [("/admin/", 302)]

    send(staff, [theirs], django_capture_on_commit_callbacks)
    theirs.refresh_from_db()
    assert theirs.status == "draft"
    assert mail.outbox == []

    templates = staff.get("/admin/messaging/messagetemplate/")
    MessageTemplate.objects.create(organization=other_organization, name="Their template", channel="sms", body="B")
    assert b"Their template" not in staff.get("/admin/messaging/messagetemplate/").content
    assert templates.status_code == 200


def test_the_change_form_offers_only_our_contacts_and_templates(staff, organization, other_organization, people):
    ours = draft(organization, [people["ana"]])
    MessageTemplate.objects.create(organization=other_organization, name="Their template", channel="email", body="B")
    Contact.objects.create(organization=other_organization, first_name="Zed")
    page = staff.get(f"{LIST_URL}{ours.pk}/change/")
    assert page.status_code == 200
    form = page.context["adminform"].form
    assert {c.organization_id for c in form.fields["contacts"].queryset} == {organization.pk}
    assert {t.organization_id for t in form.fields["template"].queryset} <= {organization.pk}
    assert b"Zed" not in page.content and b"Their template" not in page.content


def test_without_the_send_permission_the_action_is_refused(organization, people, django_capture_on_commit_callbacks):
    client = staff_client(organization, can_send=False)
    message = draft(organization, [people["ana"]])
    page = client.get(LIST_URL)
    assert "send_drafts" not in dict(page.context["action_form"].fields["action"].choices)
    send(client, [message], django_capture_on_commit_callbacks)
    message.refresh_from_db()
    assert message.status == "draft"
    assert mail.outbox == []


def test_a_sent_message_is_read_only_in_the_admin(staff, organization, people, django_capture_on_commit_callbacks):
    message = draft(organization, [people["ana"]])
    send(staff, [message], django_capture_on_commit_callbacks)
    page = staff.get(f"{LIST_URL}{message.pk}/change/")
    assert page.status_code == 200
    assert page.context["has_change_permission"] is False
    assert staff.post(f"{LIST_URL}{message.pk}/change/", {"body": "Changed"}).status_code == 403
    assert staff.post(f"{LIST_URL}{message.pk}/delete/", {"post": "yes"}).status_code == 403
    message.refresh_from_db()
    assert message.body == "<p>Dear {{ name }},</p>"


def test_the_admin_forms_apply_the_api_text_rules(staff, organization):
    response = staff.post(
        "/admin/messaging/messagetemplate/add/",
        {"organization": organization.pk, "name": "Bad", "channel": "email", "subject": "S", "body": "{% load x %}"},
    )
    assert response.status_code == 200
    assert "is not allowed" in response.content.decode()
    assert not MessageTemplate.objects.exists()
    response = staff.post(
        "/admin/messaging/messagetemplate/add/",
        {"organization": organization.pk, "name": "Good", "channel": "sms", "body": "Hi {{ firstName }}"},
    )
    assert response.status_code == 302
    assert MessageTemplate.objects.get().variables == ["firstName"]


def test_saving_another_organizations_contact_or_template_is_a_form_error(
    staff, organization, other_organization, people
):
    ours = draft(organization, [people["ana"]])
    theirs_template = MessageTemplate.objects.create(
        organization=other_organization, name="T", channel="email", subject="S", body="B"
    )
    stranger = Contact.objects.create(organization=other_organization, first_name="Zed")
    url = f"{LIST_URL}{ours.pk}/change/"
    form = {
        "organization": organization.pk,
        "channel": "email",
        "subject": "Hi",
        "body": "B",
        "contacts": [people["ana"].pk],
    }
    for change in ({"contacts": [people["ana"].pk, stranger.pk]}, {"template": theirs_template.pk}):
        response = staff.post(url, {**form, **change})
        assert response.status_code == 200
        assert "Select a valid choice" in response.content.decode()
    ours.refresh_from_db()
    assert (list(ours.contacts.all()), ours.template_id, ours.subject) == ([people["ana"]], None, "Hi {{ firstName }}")
    assert staff.post(url, form).status_code == 302
