"""Demo data: the amenity catalogue, two clubs (Madrid, Barcelona), padel and tennis courts and a studio room."""

from .choices import WEEKDAYS
from .models import Amenity, Area, AreaType, Club, ClubReview

AMENITIES = {
    "parking": ({"en": "Parking", "es": "Aparcamiento"}, "parking", "access"),
    "showers": ({"en": "Showers", "es": "Duchas"}, "shower", "facilities"),
    "cafe": ({"en": "Café", "es": "Cafetería"}, "coffee", "food"),
    "lockers": ({"en": "Lockers", "es": "Taquillas"}, "lock", "facilities"),
}

CLUBS = [
    {
        "slug": "madrid-centro",
        "name": "Demo Madrid Centro",
        "address": "Calle de Alcalá 100",
        "city": "Madrid",
        "state": "Madrid",
        "postal_code": "28009",
        "latitude": 40.4217,
        "longitude": -3.6819,
        "phone": "+34 910 000 001",
        "email": "madrid@demo.example",
        "amenities": ["parking", "showers", "cafe", "lockers"],
        "reviews": [(5, "Great courts"), (4, "Friendly staff")],
    },
    {
        "slug": "barcelona-mar",
        "name": "Demo Barcelona Mar",
        "address": "Passeig Marítim 20",
        "city": "Barcelona",
        "state": "Catalonia",
        "postal_code": "08003",
        "latitude": 41.3809,
        "longitude": 2.1896,
        "phone": "+34 930 000 002",
        "email": "barcelona@demo.example",
        "amenities": ["showers", "lockers"],
        "reviews": [(5, "Sea views"), (3, "Busy at weekends")],
    },
]

COURTS = [
    ("Padel 1", "padel", True, "24.00"),
    ("Padel 2", "padel", False, "20.00"),
    ("Tennis 1", "tennis", False, "18.00"),
]


def seed(organization, ctx: dict) -> None:
    """Idempotent. Puts `ctx["clubs"]`, `ctx["courts"]`, `ctx["rooms"]` (lists) and `ctx["area_types"]` (by slug)."""
    for code, (names, icon, category) in AMENITIES.items():
        Amenity.objects.update_or_create(code=code, defaults={"names": names, "icon": icon, "category": category})

    padel_type, _ = AreaType.objects.get_or_create(
        organization=organization, slug="padel-court", defaults={"name": "Padel court", "max_players": 4}
    )
    tennis_type, _ = AreaType.objects.get_or_create(
        organization=organization, slug="tennis-court", defaults={"name": "Tennis court", "max_players": 4}
    )
    studio_type, _ = AreaType.objects.get_or_create(
        organization=organization, slug="studio", defaults={"name": "Studio", "max_players": None}
    )
    types = {"padel": padel_type, "tennis": tennis_type}

    clubs, courts, rooms = [], [], []
    for spec in CLUBS:
        spec = dict(spec)
        reviews = spec.pop("reviews")
        slug = spec.pop("slug")
        club, _ = Club.objects.get_or_create(
            organization=organization,
            slug=slug,
            defaults={
                **spec,
                "country": "ES",
                "timezone": "Europe/Madrid",
                "website": f"https://{slug}.demo.example",
                "logo": f"https://images.demo.example/{slug}/logo.png",
                "images": [f"https://images.demo.example/{slug}/front.jpg"],
                "sports": ["padel", "tennis", "yoga"],
                "social_profiles": {"instagram": f"https://instagram.com/{slug.replace('-', '')}"},
                "opening_hours": {day: [["08:00", "22:00"]] for day in WEEKDAYS},
                "closed_dates": ["2026-12-25", "2027-01-01"],
                "marketplace_listed": True,
            },
        )
        clubs.append(club)
        for rating, comment in reviews:
            ClubReview.objects.get_or_create(
                organization=organization, club=club, comment=comment, defaults={"rating": rating, "is_public": True}
            )
        for position, (name, sport, indoor, rate) in enumerate(COURTS):
            court, _ = Area.objects.get_or_create(
                organization=organization,
                club=club,
                name=name,
                defaults={
                    "area_type": types[sport],
                    "sports": [sport],
                    "hourly_rate": rate,
                    "is_indoor": indoor,
                    "position": position,
                    "images": [f"https://images.demo.example/{club.slug}/{name.lower().replace(' ', '-')}.jpg"],
                },
            )
            courts.append(court)
        room, _ = Area.objects.get_or_create(
            organization=organization,
            club=club,
            name="Studio",
            defaults={"area_type": studio_type, "sports": ["yoga", "pilates"], "is_indoor": True, "position": 10},
        )
        rooms.append(room)

    ctx["clubs"] = clubs
    ctx["courts"] = courts
    ctx["rooms"] = rooms
    ctx["area_types"] = {t.slug: t for t in (padel_type, tennis_type, studio_type)}
