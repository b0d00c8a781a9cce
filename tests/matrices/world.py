"""Two organizations seeded with the same demo data (the same club slugs, names and e-mails), told apart only by
what org B alone carries: every row id of B is at least `B_ID_FLOOR` (the sequences are moved before B is seeded),
and B's names, titles, descriptions and notes end with `B_MARKER`. Org A's answers must contain neither.

B's clubs share A's slugs; the marketplace lists a slug once, so B's clubs are unlisted (A's gym pages answer for
them)."""

from dataclasses import dataclass

from django.apps import apps
from django.db import connection, models
from django.db.models.functions import Concat

from apps.clubs.models import Club
from apps.organizations.management.commands.seed_demo import DEMO_APPS, DEMO_ORGANIZATION, load_demo_module
from apps.organizations.models import Organization

B_ID_FLOOR = 500_000_000
B_MARKER = "Bravomark"
MARKED_FIELDS = ("name", "title", "description", "last_name", "notes", "bio", "subtitle", "summary")


@dataclass
class World:
    a: Organization
    b: Organization
    a_ctx: dict
    b_ctx: dict


def seed(slug: str, name: str) -> tuple[Organization, dict]:
    organization = Organization.objects.create(slug=slug, **{**DEMO_ORGANIZATION, "name": name})
    organization.refresh_from_db()
    ctx: dict = {}
    for app in DEMO_APPS:
        module = load_demo_module(app)
        if module is not None:
            module.seed(organization, ctx)
    return organization, ctx


def move_sequences(floor: int) -> None:
    """Every id sequence of the database restarts at `floor` (or further, should one be past it already)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT sequencename, COALESCE(last_value, 0) FROM pg_sequences WHERE schemaname = 'public'")
        for name, last in cursor.fetchall():
            cursor.execute(f'ALTER SEQUENCE "{name}" RESTART WITH {max(floor, last + 1)}')


def mark_rows(organization) -> None:
    """`B_MARKER` appended to the free-text fields of every row of `organization`."""
    suffix = models.Value(f" {B_MARKER}")
    for model in apps.get_models():
        fields = {f.name: f for f in model._meta.concrete_fields}
        owner = fields.get("organization")
        if owner is None or not isinstance(owner, models.ForeignKey) or model._meta.proxy:
            continue
        text = [
            name
            for name in MARKED_FIELDS
            if isinstance(fields.get(name), models.CharField | models.TextField)
            and not fields[name].choices
            and not fields[name].unique
        ]
        if text:
            rows = model.objects.filter(organization=organization)
            rows.update(**{name: Concat(models.F(name), suffix) for name in text})


def build_world() -> World:
    a, a_ctx = seed("alpha-gym", "Alpha Gym")
    listed = list(Club.objects.filter(organization=a, marketplace_listed=True).values_list("id", flat=True))
    Club.objects.filter(id__in=listed).update(marketplace_listed=False)
    move_sequences(B_ID_FLOOR)
    b, b_ctx = seed("bravo-gym", f"Bravo Gym {B_MARKER}")
    Club.objects.filter(organization=b).update(marketplace_listed=False)
    Club.objects.filter(id__in=listed).update(marketplace_listed=True)
    mark_rows(b)
    return World(a, b, a_ctx, b_ctx)
