"""Demo instructors (runs after clubs and contacts): types, a pay-rate policy, three instructors with weekly
availability, and the demo class types and progression track (apps/instructors/class_type_demo.py)."""

from apps.clubs.choices import DayOfWeek
from apps.clubs.models import Club
from apps.contacts.models import Contact

from . import class_type_demo
from .choices import RateType
from .models import Instructor, InstructorType, PayRatePolicy

INSTRUCTORS = [
    {
        "contact": {"first_name": "Lucia", "last_name": "Martin", "email": "lucia.martin@demo.example.com"},
        "type": "Coach",
        "sports": ["padel"],
        "experience": "8 years coaching padel",
        "hourly_rate": "35.00",
        "certifications": ["FEP Level 2"],
        "availability": [(DayOfWeek.MONDAY, "09:00", "13:00"), (DayOfWeek.WEDNESDAY, "17:00", "21:00")],
    },
    {
        "contact": {"first_name": "Marco", "last_name": "Rossi", "email": "marco.rossi@demo.example.com"},
        "type": "Coach",
        "sports": ["yoga"],
        "experience": "Yoga teacher since 2015",
        "hourly_rate": "30.00",
        "certifications": ["RYT-500"],
        "availability": [("tuesday", "07:00", "11:00"), ("thursday", "07:00", "11:00")],
    },
    {
        "contact": {"first_name": "Sara", "last_name": "Kim", "email": "sara.kim@demo.example.com"},
        "type": "Personal trainer",
        "sports": ["fitness"],
        "experience": "Strength and conditioning",
        "hourly_rate": "40.00",
        "certifications": ["NSCA-CPT"],
        "availability": [("saturday", "09:00", "14:00")],
    },
]


def seed(organization, ctx: dict) -> None:
    """Idempotent. Puts `ctx["instructors"]` ([Instructor]), `ctx["instructor_types"]` ({name: type}),
    `ctx["pay_rate_policy"]`, `ctx["class_types"]` ({slug: ClassType}) and `ctx["progression_tracks"]`."""
    types = {}
    for name, description in (("Coach", "Leads group classes and clinics."), ("Personal trainer", "1:1 sessions.")):
        types[name], _ = InstructorType.objects.get_or_create(
            organization=organization, name=name, defaults={"description": description}
        )
    policy, _ = PayRatePolicy.objects.get_or_create(
        organization=organization, name="Standard hourly", defaults={"rate_type": RateType.HOURLY, "amount": "25.00"}
    )
    club = (ctx.get("clubs") or [None])[0] or Club.objects.filter(organization=organization).order_by("id").first()
    instructors = []
    for spec in INSTRUCTORS:
        contact_fields = spec["contact"]
        contact, _ = Contact.objects.get_or_create(
            organization=organization,
            email=contact_fields["email"],
            defaults={"first_name": contact_fields["first_name"], "last_name": contact_fields["last_name"]},
        )
        instructor, _ = Instructor.objects.get_or_create(
            contact=contact,
            defaults={
                "organization": organization,
                "type": types[spec["type"]],
                "pay_rate_policy": policy,
                "sports": spec["sports"],
                "experience": spec["experience"],
                "hourly_rate": spec["hourly_rate"],
                "certifications": spec["certifications"],
                "bio": {"blocks": [{"type": "paragraph", "data": {"text": spec["experience"]}}]},
                "weekly_availability": [
                    {"dayOfWeek": day, "startTime": start, "endTime": end, "clubId": club.id if club else None}
                    for day, start, end in spec["availability"]
                ],
            },
        )
        instructors.append(instructor)
    ctx["instructor_types"] = types
    ctx["pay_rate_policy"] = policy
    ctx["instructors"] = instructors
    class_type_demo.seed(organization, ctx)
