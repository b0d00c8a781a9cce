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


# What each scope lets a credential do, in words (the consent page, the OAuth metadata, the OpenAPI scheme).
SCOPE_DESCRIPTIONS: dict[str, str] = {
    WILDCARD: "Everything in your organization, including abilities added later",
    "classes:read": "View classes, class types, schedules and progression tracks",
    "classes:write": "Create, reschedule, cancel and delete classes, and maintain class types",
    "checkins:read": "View check-ins",
    "checkins:write": "Check people in to a booking or on a membership",
    "content:read": "View published content",
    "content:write": "Create, edit and delete posts, FAQs, documents and reusable blocks",
    "website:read": "View website pages, sections, layout, styles and publish history",
    "website:write": "Edit the website (changes stay unpublished)",
    "website:publish": "Publish and roll back the website",
    "media:read": "View the media library",
    "media:write": "Add images and videos and edit their names and descriptions",
    "media:delete": "Permanently delete media files",
    "clubs:read": "View club information",
    "transactions:read": "View transactions, revenue reports and the chart of accounts",
    "transactions:write": "Record revenue collected outside the service, and its refunds (nothing is charged)",
    "invoices:read": "View invoices and amounts invoiced over a period",
    "areas:read": "View areas, area types, blocks and availability",
    "areas:write": "Create and update areas and area types, block or unblock an area",
    "bookings:read": "View bookings, players and class rosters",
    "bookings:write": "Create, change, reschedule and cancel bookings, manage participants, book people into classes",
    "contacts:read": "View contacts, pipeline stages and sources",
    "contacts:write": "Create and update contacts",
    "contacts:delete": "Archive contacts (cancels their active memberships and future bookings)",
    "instructors:read": "View instructors, instructor types, pay rate policies and availability",
    "instructors:write": "Create and update instructors, instructor types and pay rate policies",
    "plans:read": "View plans, plan categories and pricing",
    "plans:write": "Create, edit, retire and delete plans and plan categories",
    "memberships:read": "View memberships",
    "memberships:write": "Sell memberships, set their price and paid state, pause, resume and cancel them",
    "products:read": "View the product catalogue, categories and remaining stock",
    "products:write": "Create and edit products and product categories",
    "forms:read": "View forms, their questions and completion counts (not answers)",
    "forms:write": "Create and edit forms (public as soon as created or changed)",
    "organization:write": "Change organization-wide settings, effective immediately",
    "revenue-accounts:write": "Add and edit ledger accounts, including the default sales account",
    "pricing-rules:read": "View pricing rules and quote booking prices",
    "pricing-rules:write": "Create, edit, turn off and delete pricing rules",
    "booking-policies:read": "View booking policies",
    "booking-policies:write": "Create, edit, duplicate and delete booking policies",
    "document-rules:read": "View document rules",
    "document-rules:write": "Create, edit and delete rules on who must sign or accept documents",
    "templates:read": "View email and SMS templates",
    "templates:write": "Create, edit and delete email and SMS templates",
    "events:read": "View events, tickets and sold counts",
    "events:write": "Create, edit, duplicate, delete, publish, unpublish and cancel events",
    "messages:read": "View messages and their delivery status",
    "messages:write": "Prepare message drafts (drafts are never sent through the API)",
    "analytics:read": "View statistics totals over a period (never the people or sales behind them)",
    "webhooks:read": "View webhook subscriptions and their delivery log",
    "webhooks:write": "Create, change and delete webhook subscriptions",
}


def describe(scope: str) -> str:
    return SCOPE_DESCRIPTIONS.get(scope) or scope
