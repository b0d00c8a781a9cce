"""The scope registry: every `<resource>:<action>` the Platform API knows.

No hierarchy: a scope grants exactly itself. `*` expands to every scope in this registry, so a scope added
here later is granted to existing full-access credentials automatically.
"""

WILDCARD = "*"

# resource -> actions, in the order the spec's scope table lists them.
RESOURCE_ACTIONS: dict[str, tuple[str, ...]] = {
    "classes": ("read", "write"),
    "checkins": ("read", "write"),
    "content": ("read", "write"),
    "website": ("read", "write", "publish"),
    "media": ("read", "write", "delete"),
    "clubs": ("read",),
    "transactions": ("read", "write"),
    "invoices": ("read",),
    "areas": ("read", "write"),
    "bookings": ("read", "write"),
    "contacts": ("read", "write", "delete"),
    "instructors": ("read", "write"),
    "plans": ("read", "write"),
    "memberships": ("read", "write"),
    "products": ("read", "write"),
    "forms": ("read", "write"),
    "organization": ("write",),
    "revenue-accounts": ("write",),
    "pricing-rules": ("read", "write"),
    "booking-policies": ("read", "write"),
    "document-rules": ("read", "write"),
    "templates": ("read", "write"),
    "events": ("read", "write"),
    "messages": ("read", "write"),
    "analytics": ("read",),
    "webhooks": ("read", "write"),
}

ALL_SCOPES: tuple[str, ...] = tuple(f"{r}:{a}" for r, actions in RESOURCE_ACTIONS.items() for a in actions)
ALL_SCOPES_SET = frozenset(ALL_SCOPES)
READ_SCOPES: tuple[str, ...] = tuple(s for s in ALL_SCOPES if s.endswith(":read"))

# The legacy broad read grant: expands to the `:read` scopes only, never to write, delete or publish.
LEGACY_READ_GRANT = "read"

# The `resources` catalogue of GET /me, identical for every credential.
RESOURCE_CATALOG = [{"resource": r, "actions": list(actions)} for r, actions in RESOURCE_ACTIONS.items()]

ACTION_LABELS = {"read": "Read", "write": "Write", "delete": "Delete", "publish": "Publish"}


def is_known_scope(scope: str) -> bool:
    return scope == WILDCARD or scope == LEGACY_READ_GRANT or scope in ALL_SCOPES_SET


def expand_scopes(scopes) -> frozenset[str]:
    """The effective scopes: the wildcard and the legacy read grant expanded, unknown names dropped."""
    effective = set()
    for scope in scopes:
        if scope == WILDCARD:
            return ALL_SCOPES_SET
        if scope == LEGACY_READ_GRANT:
            effective.update(READ_SCOPES)
        elif scope in ALL_SCOPES_SET:
            effective.add(scope)
    return frozenset(effective)


_REGISTRY_INDEX = {s: i for i, s in enumerate(ALL_SCOPES)}


def ordered(scopes) -> list[str]:
    """Scopes in registry order, for stable output (unregistered names last, alphabetically)."""
    end = len(_REGISTRY_INDEX)
    return sorted(scopes, key=lambda s: (_REGISTRY_INDEX.get(s, end), s))


def crud_scopes(
    resource: str, *, read=("list", "retrieve"), write=("create", "partial_update"), **extra_actions
) -> dict[str, str | set[str]]:
    """A viewset's `required_scopes`: `read` actions need `<resource>:read`, `write` actions `<resource>:write`,
    and each extra action (`archive="contacts:delete"`) the scope given for it."""
    scopes = {action: f"{resource}:read" for action in read}
    scopes.update({action: f"{resource}:write" for action in write})
    scopes.update(extra_actions)
    return scopes
