"""E-mail and SMS templates through the HTTP API: required fields per channel, the SMS length, the sandboxed
template syntax (400 naming the field), detected variables, filters, delete."""

import pytest

from apps.messaging.models import Message, MessageTemplate
from tests.messaging.cases import template_rows

URL = "/v1/platform/templates"


def item(pk):
    return f"{URL}/{pk}"


def create(api, **body):
    body = {"name": "Welcome", "channel": "email", "subject": "Hi {{ firstName }}", "body": "<p>Hello</p>", **body}
    response = api.post(URL, body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def assert_invalid(response, field):
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    assert field in body["details"]["fields"], body
    return body["details"]["fields"][field]


def test_create_returns_every_field(api):
    response = api.post(
        URL,
        {
            "name": "Welcome",
            "channel": "email",
            "subject": "Welcome to {{ organizationName }}",
            "body": "<p>Hi {{ firstName|default:name }}</p>{% if phone %}<p>{{ phone }}</p>{% endif %}",
            "variables": ["ignored"],
            "id": 999,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert response["Location"] == item(body["id"])
    assert body["id"] != 999
    assert {k: v for k, v in body.items() if k not in ("id", "createdAt", "updatedAt")} == {
        "name": "Welcome",
        "channel": "email",
        "subject": "Welcome to {{ organizationName }}",
        "body": "<p>Hi {{ firstName|default:name }}</p>{% if phone %}<p>{{ phone }}</p>{% endif %}",
        "variables": ["organizationName", "firstName", "name", "phone"],
        "isActive": True,
    }
    assert MessageTemplate.objects.get(pk=body["id"]).variables == body["variables"]
    assert api.get(item(body["id"])).json() == body


def test_sms_template_has_no_subject(api):
    body = create(api, channel="sms", subject=None, body="Hi {{ firstName }}, see you at {{ organizationName }}")
    assert body["subject"] is None
    assert body["variables"] == ["firstName", "organizationName"]


def test_name_channel_and_body_are_required(api):
    response = api.post(URL, {}, format="json")
    assert_invalid(response, "name")
    assert {"channel", "body"} <= set(response.json()["details"]["fields"])
    assert MessageTemplate.objects.count() == 0


@pytest.mark.parametrize("subject", [None, "", "   "])
def test_email_needs_a_subject(api, subject):
    body = {"name": "T", "channel": "email", "body": "Hi"}
    if subject is not None:
        body["subject"] = subject
    assert assert_invalid(api.post(URL, body, format="json"), "subject") == ["Required for e-mail."]
    assert MessageTemplate.objects.count() == 0


def test_sms_refuses_a_subject(api):
    response = api.post(URL, {"name": "T", "channel": "sms", "subject": "Hello", "body": "Hi"}, format="json")
    assert_invalid(response, "subject")


def test_sms_body_is_at_most_1600_characters(api):
    create(api, channel="sms", subject=None, body="x" * 1600)
    messages = assert_invalid(api.post(URL, {"name": "T", "channel": "sms", "body": "x" * 1601}, format="json"), "body")
    assert "1600" in messages[0]
    # an e-mail body may be longer
    create(api, body="x" * 1601)


@pytest.mark.parametrize(
    "field, good, bad",
    [
        ("name", "x" * 120, "x" * 121),
        ("name", "x", ""),
        ("name", "x", 5),
        ("channel", "sms", "fax"),
        ("subject", "x" * 255, "x" * 256),
        ("body", "x", "   "),
        ("body", "x", ["x"]),
        ("isActive", False, "false"),
    ],
)
def test_bounds_at_their_edges(api, field, good, bad):
    body = {"name": "T", "channel": "email", "subject": "S", "body": "B"}
    if field == "channel":
        body["subject"] = None
    assert api.post(URL, {**body, field: good}, format="json").status_code == 201
    assert_invalid(api.post(URL, {**body, field: bad}, format="json"), field)


@pytest.mark.parametrize(
    "text",
    [
        "{% load static %}{% static 'x.css' %}",
        "{% include 'admin/base.html' %}",
        "{% extends 'admin/base.html' %}",
        "{% debug %}",
        "{% url 'admin:index' %}",
        "{% csrf_token %}",
        "{% now 'Y' %}",
        "{% for c in name %}{{ c }}{% endfor %}",
        "{% lorem 100000 w %}",
        "{% with x=name %}{{ x }}{% endwith %}",
        "{{ name.__class__ }}",
        "{{ name|pprint }}",
        "{{ name|safe }}",
        "{{ name|ljust:'1000000' }}",
        "{% if name %}unclosed",
        "{{ name|nope }}",
        "{{ }}",
    ],
)
def test_a_template_outside_the_sandbox_is_a_400_naming_the_field(api, text):
    message = assert_invalid(
        api.post(URL, {"name": "T", "channel": "sms", "body": f"Hi {text}"}, format="json"), "body"
    )
    assert message and isinstance(message[0], str)
    assert_invalid(
        api.post(URL, {"name": "T", "channel": "email", "subject": text, "body": "Hi"}, format="json"), "subject"
    )
    assert MessageTemplate.objects.count() == 0


def test_the_refusal_names_the_tag(api):
    response = api.post(URL, {"name": "T", "channel": "sms", "body": "a\n{% load static %}"}, format="json")
    (message,) = assert_invalid(response, "body")
    assert message.startswith("`{% load %}` is not allowed (line 2)")


def test_allowed_syntax_is_accepted(api):
    text = (
        "{# note #}{% comment %}{{ hidden }}{% endcomment %}{% verbatim %}{{ literal }}{% endverbatim %}"
        "{% spaceless %}<p> {{ name|upper|truncatechars:10 }} </p>{% endspaceless %}"
        "{% if firstName and not lastName %}{{ firstName|title }}"
        "{% elif email %}{{ email|lower }}{% else %}x{% endif %}"
        "{% firstof nickname firstName 'friend' %}"
    )
    body = create(api, body=text, subject="Hello")
    assert body["variables"] == ["name", "firstName", "lastName", "email", "nickname"]


def test_patch_keeps_what_is_not_sent_and_recomputes_variables(api):
    template = create(api)
    response = api.patch(item(template["id"]), {"body": "Hi {{ lastName }}"}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["name"] == "Welcome"
    assert body["subject"] == "Hi {{ firstName }}"
    assert body["variables"] == ["firstName", "lastName"]
    assert body["updatedAt"] >= template["updatedAt"]


def test_patch_checks_the_result_for_its_channel(api):
    template = create(api)
    # to SMS: the stored subject is dropped
    to_sms = api.patch(item(template["id"]), {"channel": "sms"}, format="json")
    assert to_sms.status_code == 200, to_sms.json()
    assert to_sms.json()["subject"] is None
    # back to e-mail without a subject: refused, nothing changed
    assert_invalid(api.patch(item(template["id"]), {"channel": "email"}, format="json"), "subject")
    assert MessageTemplate.objects.get(pk=template["id"]).channel == "sms"
    # an SMS body longer than 1600 characters
    assert_invalid(api.patch(item(template["id"]), {"body": "x" * 1601}, format="json"), "body")
    # a long e-mail template cannot become an SMS
    long = create(api, body="x" * 1601)
    assert_invalid(api.patch(item(long["id"]), {"channel": "sms"}, format="json"), "body")
    assert_invalid(api.patch(item(template["id"]), {"body": "{% include 'x' %}"}, format="json"), "body")
    assert MessageTemplate.objects.get(pk=template["id"]).body == "<p>Hello</p>"


def test_filters_and_search(api):
    welcome = create(api, name="Welcome", subject="Welcome aboard")
    reminder = create(api, name="Reminder", channel="sms", subject=None, body="Your CLASS starts soon")
    promo = create(api, name="Promo", subject="Summer", isActive=False)

    def ids(query):
        response = api.get(f"{URL}?{query}")
        assert response.status_code == 200, response.json()
        return [row["id"] for row in response.json()["data"]]

    assert ids("channel=sms") == [reminder["id"]]
    assert ids("channel=email") == [promo["id"], welcome["id"]]
    assert ids("channel=email,sms") == [promo["id"], reminder["id"], welcome["id"]]
    assert ids("q=welc") == [welcome["id"]]  # name
    assert ids("q=SUMMER") == [promo["id"]]  # subject
    assert ids("q=class") == [reminder["id"]]  # body
    assert ids("isActive=false") == [promo["id"]]
    assert ids("ordering=name") == [promo["id"], reminder["id"], welcome["id"]]
    for bad in ("channel=fax", "isActive=maybe", "ordering=body"):
        response = api.get(f"{URL}?{bad}")
        assert response.status_code == 400, bad
        assert bad.split("=")[0] in response.json()["details"]["fields"]


def test_delete_keeps_the_messages_drafted_from_it(api, organization):
    template = create(api)
    message = Message.objects.create(
        organization=organization, channel="email", subject="S", body="B", template_id=template["id"]
    )
    response = api.delete(item(template["id"]))
    assert response.status_code == 204
    assert response.content == b""
    assert not MessageTemplate.objects.filter(pk=template["id"]).exists()
    assert api.get(item(template["id"])).status_code == 404
    assert api.get(f"/v1/platform/messages/{message.pk}").json()["templateId"] is None


def test_read_and_write_scopes_are_separate(client_for):
    writer = client_for("templates:write")
    created = writer.post(URL, {"name": "T", "channel": "sms", "body": "Hi"}, format="json")
    assert created.status_code == 201
    assert writer.get(URL).status_code == 403
    reader = client_for("templates:read")
    assert reader.get(item(created.json()["id"])).status_code == 200
    assert reader.delete(item(created.json()["id"])).json()["requiredScope"] == "templates:write"


def test_list_costs_the_same_queries_for_1_or_200_rows(api, organization, django_assert_max_num_queries):
    template_rows(organization, 1)
    api.get(URL)
    with django_assert_max_num_queries(100) as one:
        assert api.get(f"{URL}?limit=200").json()["total"] == 1
    template_rows(organization, 199)
    with django_assert_max_num_queries(len(one.captured_queries)):
        assert len(api.get(f"{URL}?limit=200").json()["data"]) == 200
