"""Demo templates (a welcome e-mail, a class reminder SMS, an inactive promotion) and one draft e-mail drafted from
the welcome template to the demo contacts who gave marketing consent. Runs after contacts; idempotent (templates
found by name, the draft by its subject). Nothing is sent."""

from . import services
from .choices import MessageChannel, MessageStatus
from .models import Message, MessageTemplate

TEMPLATES = [
    {
        "name": "Welcome e-mail",
        "channel": MessageChannel.EMAIL,
        "subject": "Welcome to {{ organizationName }}, {{ firstName }}!",
        "body": "<p>Hi {{ firstName }},</p>\n<p>Thanks for joining {{ organizationName }}. Book your first court or "
        "class in the app.</p>\n<p>See you soon!</p>",
    },
    {
        "name": "Class reminder SMS",
        "channel": MessageChannel.SMS,
        "subject": None,
        "body": "Hi {{ firstName }}, a reminder from {{ organizationName }}: your class starts soon. Reply STOP to "
        "opt out.",
    },
    {
        "name": "Summer promotion",
        "channel": MessageChannel.EMAIL,
        "subject": "{{ firstName|default:'Hello' }}, summer passes are here",
        "body": "<p>{% if firstName %}Hi {{ firstName }},{% else %}Hello,{% endif %}</p>\n<p>Two months of padel "
        "for the price of one.</p>",
        "is_active": False,
    },
]
DRAFT_SUBJECT = "A warm welcome from {{ organizationName }}"


def seed(organization, ctx: dict) -> None:
    """Puts `ctx["message_templates"]` ({name: MessageTemplate}) and `ctx["draft_message"]`."""
    templates = {}
    for spec in TEMPLATES:
        spec = dict(spec)
        name = spec.pop("name")
        template = MessageTemplate.objects.filter(organization=organization, name=name).first()
        templates[name] = template or services.create_template(organization, {"name": name, **spec})
    welcome = templates["Welcome e-mail"]
    draft = Message.objects.filter(organization=organization, subject=DRAFT_SUBJECT).first()
    if draft is None:
        recipients = [c.pk for c in ctx.get("contacts") or [] if c.marketing_consent]
        draft = services.create_message(
            organization,
            {
                "channel": MessageChannel.EMAIL,
                "subject": DRAFT_SUBJECT,
                "body": welcome.body,
                "template": welcome,
                "contact_ids": recipients,
                "status": MessageStatus.DRAFT,
            },
        )
    ctx["message_templates"] = templates
    ctx["draft_message"] = draft
