"""What an authenticated request carries, whatever the kind of credential (API key or OAuth token)."""

from dataclasses import dataclass, field

from .scopes import WILDCARD, expand_scopes


@dataclass(frozen=True)
class Credential:
    """One authenticated credential: it names exactly one organization and holds scopes."""

    kind: str  # "api_key" or "oauth"
    id: int
    name: str
    organization: object
    scopes: tuple[str, ...]
    effective_scopes: frozenset[str] = field(default=frozenset())

    @classmethod
    def build(cls, kind, id, name, organization, scopes):
        scopes = tuple(scopes)
        return cls(kind, id, name, organization, scopes, expand_scopes(scopes))

    @property
    def full_access(self) -> bool:
        return WILDCARD in self.scopes

    @property
    def key(self) -> str:
        """The credential's identity across requests (`api_key:<id>`; an OAuth token is keyed by its grant)."""
        return f"{self.kind}:{self.id}"

    @property
    def rate_limit_key(self) -> str:
        return self.key

    def has_scope(self, scope: str) -> bool:
        return scope in self.effective_scopes
