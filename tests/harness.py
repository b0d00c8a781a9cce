"""The uniform endpoint contract, in the spirit of NetBox's API test cases.

Each app's tests add `EndpointCase` rows to a `CASES` list in `tests/<app>/cases.py`; `tests/test_contract.py`
checks every row for: 401 without a credential, 403 short body without its scope, 404 for another
organization's object, and (for lists) a query count that does not grow with the number of rows. A meta-test
fails when a routed Platform API action lacks a `required_scopes` entry or a case here.
"""

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field

from django.urls import URLPattern, URLResolver, get_resolver

import tests
from apps.api.permissions import NO_SCOPE
from apps.api.scopes import ALL_SCOPES


@dataclass
class EndpointCase:
    """One Platform API operation under the uniform contract.

    path: a template such as "/v1/platform/classes/{id}"; `setup(organization)` returns the values that fill it,
    creating whatever objects the path names in that organization.
    scope: the scope the operation needs (a set for any-of, None for a valid credential only).
    list_rows: for list endpoints, `list_rows(organization, n)` creates n rows that the list returns.
    """

    method: str
    path: str
    scope: str | frozenset | tuple | None  # a tuple: apps.api.permissions.AllOf
    setup: Callable | None = None
    body: dict | None = None
    list_rows: Callable | None = None
    foreign_404: bool = True  # path objects of another organization answer 404
    id: str = field(default="")

    def __post_init__(self):
        if not self.id:
            self.id = f"{self.method} {self.path}"

    def url(self, organization) -> str:
        values = self.setup(organization) if self.setup else {}
        return self.path.format(**values)

    def scopes_without_required(self) -> list[str]:
        needed = {self.scope} if isinstance(self.scope, str) else set(self.scope or ())
        return [s for s in ALL_SCOPES if s not in needed]


def all_cases() -> list[EndpointCase]:
    cases = []
    for module in pkgutil.iter_modules(tests.__path__):
        if module.ispkg:
            try:
                cases_module = importlib.import_module(f"tests.{module.name}.cases")
            except ModuleNotFoundError as exc:
                if exc.name != f"tests.{module.name}.cases":
                    raise
                continue
            cases.extend(cases_module.CASES)
    return cases


def platform_routes() -> list[tuple[object, str, str]]:
    """(callback, METHOD, description) for every routed Platform API operation."""
    routes = []

    def walk(patterns, prefix):
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                full = prefix + str(p.pattern)
                if not full.startswith("v1/platform/"):
                    continue
                callback = p.callback
                cls = getattr(callback, "cls", None)
                if cls is None:
                    continue
                actions = getattr(callback, "actions", None)
                if actions:
                    methods = [m for m in actions if m in cls.http_method_names and m != "head"]
                else:
                    methods = [m for m in cls.http_method_names if m != "head" and hasattr(cls, m)]
                for method in methods:
                    routes.append((callback, method.upper(), full))

    walk(get_resolver().url_patterns, "")
    return routes


def action_for(callback, method: str) -> str:
    actions = getattr(callback, "actions", None)
    return actions[method.lower()] if actions else method.lower()


def declared_scope(callback, method: str):
    return (callback.cls.required_scopes or {}).get(action_for(callback, method))


__all__ = ["EndpointCase", "all_cases", "platform_routes", "declared_scope", "NO_SCOPE"]
