"""Demo data: the amenity catalogue and a network of clubs in several cities (Madrid and Barcelona with padel and
tennis courts and a studio room; Valencia, Sevilla and Lisbon listed on the marketplace; Bilbao not listed), each
with coordinates, opening hours and courts with hourly rates, so the marketplace has real offers and pages."""

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
        "amenities": ["showers", "lockers"],
        "reviews": [(5, "Sea views"), (3, "Busy at weekends")],
    },
]

# (slug, name, max players); courts take theirs by sport, the studio rooms "studio".
AREA_TYPES = [("padel-court", "Padel court", 4), ("tennis-court", "Tennis court", 4), ("studio", "Studio", None)]

COURTS = [
    ("Padel 1", "padel", True, "24.00"),
    ("Padel 2", "padel", False, "20.00"),
    ("Tennis 1", "tennis", False, "18.00"),
]

WEEKDAYS_ONLY = ("monday", "tuesday", "wednesday", "thursday", "friday")

# The rest of the demo network: (club fields, courts). Fields not given take the defaults of `seed` (the e-mail is
# the first word of the slug at demo.example).
NETWORK_CLUBS = [
    (
        {
            "slug": "valencia-playa",
            "name": "Demo Valencia Playa",
            "address": "Passeig de Neptú 12",
            "city": "Valencia",
            "state": "Valencian Community",
            "postal_code": "46011",
            "latitude": 39.4625,
            "longitude": -0.3247,
            "phone": "+34 960 000 003",
            "amenities": ["parking", "showers", "cafe"],
            "sports": ["padel"],
            "opening_hours": {
                **{day: [["07:00", "23:00"]] for day in WEEKDAYS_ONLY},
                "saturday": [["09:00", "21:00"]],
                "sunday": [["09:00", "21:00"]],
            },
            "reviews": [(4, "Good value"), (5, "Lovely beach club")],
        },
        [
            ("Padel 1", "padel", True, "22.00"),
            ("Padel 2", "padel", True, "22.00"),
            ("Padel 3", "padel", False, "16.00"),
        ],
    ),
    (
        {
            "slug": "sevilla-triana",
            "name": "Demo Sevilla Triana",
            "address": "Calle Betis 40",
            "city": "Sevilla",
            "state": "Andalusia",
            "postal_code": "41010",
            "latitude": 37.3826,
            "longitude": -6.0034,
            "phone": "+34 950 000 004",
            "amenities": ["showers", "lockers"],
            "sports": ["padel", "tennis"],
            # Closed on Sundays and through the afternoon heat.
            "opening_hours": {
                **{day: [["08:00", "14:00"], ["17:00", "23:00"]] for day in WEEKDAYS_ONLY},
                "saturday": [["09:00", "14:00"]],
            },
            "reviews": [(4, "Evening games are great")],
        },
        [("Padel 1", "padel", False, "18.00"), ("Tennis 1", "tennis", False, "15.00")],
    ),
    (
        {
            "slug": "lisboa-belem",
            "name": "Demo Lisboa Belém",
            "address": "Avenida de Brasília 8",
            "city": "Lisboa",
            "state": "Lisboa",
            "country": "PT",
            "timezone": "Europe/Lisbon",
            "postal_code": "1400-038",
            "latitude": 38.6930,
            "longitude": -9.2060,
            "phone": "+351 210 000 005",
            "amenities": ["parking", "cafe"],
            "sports": ["padel"],
            "reviews": [(5, "Views of the river")],
        },
        [("Padel 1", "padel", True, "19.00"), ("Padel 2", "padel", False, "17.00")],
    ),
    (
        {
            "slug": "bilbao-ria",
            "name": "Demo Bilbao Ría",
            "address": "Campo Volantín 20",
            "city": "Bilbao",
            "state": "Basque Country",
            "postal_code": "48007",
            "latitude": 43.2660,
            "longitude": -2.9260,
            "phone": "+34 940 000 006",
            "sports": ["padel"],
            "marketplace_listed": False,  # opening soon: not on the marketplace yet
            "reviews": [],
        },
        [("Padel 1", "padel", True, "21.00")],
    ),
]


def seed(organization, ctx: dict) -> None:
    """Idempotent. Puts `ctx["clubs"]`, `ctx["courts"]`, `ctx["rooms"]` (lists) and `ctx["area_types"]` (by slug)."""
    for code, (names, icon, category) in AMENITIES.items():
        Amenity.objects.update_or_create(code=code, defaults={"names": names, "icon": icon, "category": category})

    area_types = {}
    for slug, name, max_players in AREA_TYPES:
        area_types[slug], _ = AreaType.objects.get_or_create(
            organization=organization, slug=slug, defaults={"name": name, "max_players": max_players}
        )
    types = {"padel": area_types["padel-court"], "tennis": area_types["tennis-court"]}
    studio_type = area_types["studio"]

    clubs, courts, rooms = [], [], []
    network = [(spec, COURTS, True) for spec in CLUBS] + [(spec, own, False) for spec, own in NETWORK_CLUBS]
    for spec, club_courts, has_studio in network:
        spec = dict(spec)
        reviews = spec.pop("reviews")
        slug = spec.pop("slug")
        club, _ = Club.objects.get_or_create(
            organization=organization,
            slug=slug,
            defaults={
                "country": "ES",
                "timezone": "Europe/Madrid",
                "email": f"{slug.split('-')[0]}@demo.example",
                "website": f"https://{slug}.demo.example",
                "logo": f"https://images.demo.example/{slug}/logo.png",
                "images": [f"https://images.demo.example/{slug}/front.jpg"],
                "sports": ["padel", "tennis", "yoga"],
                "social_profiles": {"instagram": f"https://instagram.com/{slug.replace('-', '')}"},
                "opening_hours": {day: [["08:00", "22:00"]] for day in WEEKDAYS},
                "closed_dates": ["2026-12-25", "2027-01-01"],
                "marketplace_listed": True,
                **spec,
            },
        )
        clubs.append(club)
        for rating, comment in reviews:
            ClubReview.objects.get_or_create(
                organization=organization, club=club, comment=comment, defaults={"rating": rating, "is_public": True}
            )
        for position, (name, sport, indoor, rate) in enumerate(club_courts):
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
        if not has_studio:
            continue
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
    ctx["area_types"] = area_types
