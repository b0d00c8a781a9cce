"""Demo contacts: pipeline stages (Lead, Trial, Member), sources (Website, Walk-in, Referral) and 12 people."""

from .models import Contact, ContactSource, PipelineStage

STAGES = [("Lead", "#9ca3af", True), ("Trial", "#f59e0b", False), ("Member", "#10b981", False)]
SOURCES = ["Website", "Walk-in", "Referral"]
PEOPLE = [
    ("Ana", "Lopez", "Member", "Website", ["padel"]),
    ("Bruno", "Garcia", "Member", "Walk-in", ["tennis"]),
    ("Carla", "Sanchez", "Trial", "Referral", ["yoga"]),
    ("David", "Moreno", "Member", "Website", ["padel", "vip"]),
    ("Elena", "Ruiz", "Lead", "Website", []),
    ("Fernando", "Diaz", "Member", "Referral", ["padel"]),
    ("Gloria", "Alvarez", "Trial", "Walk-in", ["pilates"]),
    ("Hugo", "Romero", "Member", "Website", ["tennis"]),
    ("Irene", "Navarro", "Lead", "Referral", []),
    ("Javier", "Torres", "Member", "Walk-in", ["padel"]),
    ("Laura", "Gil", "Member", "Website", ["yoga", "kids"]),
    ("Mario", "Vazquez", "Trial", "Website", ["padel"]),
]


def seed(organization, ctx: dict) -> None:
    """Idempotent. Puts `ctx["contacts"]` ([Contact]), `ctx["pipeline_stages"]` and `ctx["contact_sources"]`
    ({name: object})."""
    stages = {}
    for position, (name, color, is_default) in enumerate(STAGES, start=1):
        stages[name], _ = PipelineStage.objects.get_or_create(
            organization=organization,
            name=name,
            defaults={"position": position, "color": color, "is_default": is_default},
        )
    sources = {}
    for name in SOURCES:
        sources[name], _ = ContactSource.objects.get_or_create(organization=organization, name=name)
    contacts = []
    for index, (first, last, stage, source, tags) in enumerate(PEOPLE):
        contact, _ = Contact.objects.get_or_create(
            organization=organization,
            email=f"{first.lower()}.{last.lower()}@demo.example.com",
            defaults={
                "first_name": first,
                "last_name": last,
                "phone": f"+34 600 100 {index:03d}",
                "pipeline_stage": stages[stage],
                "source": sources[source],
                "tags": tags,
                "marketing_consent": index % 2 == 0,
                "language": "es" if index % 3 == 0 else "en",
            },
        )
        contacts.append(contact)
    ctx["contacts"] = contacts
    ctx["pipeline_stages"] = stages
    ctx["contact_sources"] = sources
