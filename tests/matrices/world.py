"""Two organizations seeded with the same demo data (the same club slugs, names and e-mails), told apart only by
what org B alone carries: every seeded row id of B is at least `B_ID_FLOOR` (the sequences are moved while B is
seeded, and moved back after), and B's names, titles, descriptions and notes end with `B_MARKER`. Org A's answers
must contain neither.

B's clubs share A's slugs; the marketplace lists a slug once, so B's clubs are unlisted (A's gym pages answer for
them)."""

from dataclasses import dataclass

from django.apps import apps
from django.db import connection, models
from django.db.models.functions import Concat

from apps.clubs.models import Area, Club
from apps.organizations.management.commands.seed_demo import DEMO_APPS, DEMO_ORGANIZATION, load_demo_module
from apps.organizations.models import Organization
from tests.clubs.cases import make_block
from tests.webhooks.factories import make_delivery, make_event, make_subscription

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


def sequences() -> dict[str, int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT sequencename, COALESCE(last_value, 0) FROM pg_sequences WHERE schemaname = 'public'")
        return dict(cursor.fetchall())


def restart_sequences(starts: dict[str, int]) -> None:
    with connection.cursor() as cursor:
        for name, start in starts.items():
            cursor.execute(f'ALTER SEQUENCE "{name}" RESTART WITH {start}')


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


def add_what_the_demo_lacks(organization) -> None:
    """An area block and a webhook subscription with a delivered event: the demo has none."""
    make_block(organization, Area.objects.filter(organization=organization).order_by("id").first())
    make_delivery(make_subscription(organization), make_event(organization))


def build_world() -> World:
    a, a_ctx = seed("alpha-gym", "Alpha Gym")
    add_what_the_demo_lacks(a)
    listed = list(Club.objects.filter(organization=a, marketplace_listed=True).values_list("id", flat=True))
    Club.objects.filter(id__in=listed).update(marketplace_listed=False)
    before = sequences()
    assert max(before.values(), default=0) < B_ID_FLOOR
    restart_sequences(dict.fromkeys(before, B_ID_FLOOR))
    b, b_ctx = seed("bravo-gym", f"Bravo Gym {B_MARKER}")
    add_what_the_demo_lacks(b)
    # Rows the tests make get ids below the floor again: only B's seeded rows carry such ids.
    restart_sequences({name: last + 1 for name, last in before.items()})
    Club.objects.filter(organization=b).update(marketplace_listed=False)
    Club.objects.filter(id__in=listed).update(marketplace_listed=True)
    mark_rows(b)
    return World(a, b, a_ctx, b_ctx)
