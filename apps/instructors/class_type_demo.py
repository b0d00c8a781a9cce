"""Demo class types and a progression track. Called from apps/instructors/demo.py (which runs before classes)."""

from apps.classes.models import ClassType, ProgressionLevel, ProgressionTrack

CLASS_TYPES = [
    {
        "slug": "yoga",
        "name": "Yoga",
        "description": "Flow and stretch for every level.",
        "max_party_size": None,
        "color": "#4CAF50",
        "sport": "yoga",
        "translations": {"es": {"name": "Yoga", "description": "Flow y estiramientos para todos los niveles."}},
    },
    {
        "slug": "padel-clinic",
        "name": "Padel clinic",
        "description": "Coached drills on court.",
        "max_party_size": 2,
        "color": "#2196F3",
        "sport": "padel",
        "translations": {"es": {"name": "Clínica de pádel", "description": "Ejercicios guiados en pista."}},
    },
    {
        "slug": "hiit",
        "name": "HIIT",
        "description": "High-intensity interval training.",
        "max_party_size": None,
        "color": "#F44336",
        "sport": "fitness",
        "translations": {"es": {"name": "HIIT", "description": "Entrenamiento de intervalos de alta intensidad."}},
    },
]

LEVELS = ["Beginner", "Intermediate", "Advanced"]


def seed(organization, ctx: dict) -> None:
    """Idempotent. Puts `ctx["class_types"]` ({slug: ClassType}) and `ctx["progression_tracks"]` ([track])."""
    class_types = {}
    for spec in CLASS_TYPES:
        fields = {k: v for k, v in spec.items() if k != "slug"}
        class_type, _ = ClassType.objects.get_or_create(organization=organization, slug=spec["slug"], defaults=fields)
        class_types[spec["slug"]] = class_type
    track, _ = ProgressionTrack.objects.get_or_create(
        organization=organization,
        slug="padel-pathway",
        defaults={
            "name": "Padel pathway",
            "description": "From first rally to match play.",
            "translations": {"es": {"name": "Itinerario de pádel", "description": "Del primer peloteo al partido."}},
        },
    )
    track.class_types.add(class_types["padel-clinic"])
    for position, name in enumerate(LEVELS, start=1):
        ProgressionLevel.objects.get_or_create(track=track, position=position, defaults={"name": name})
    ctx["class_types"] = class_types
    ctx["progression_tracks"] = [track]
