"""Import structure of `apps/`: no import cycles between modules or apps, no imports hidden inside functions, and
apps depending only on the apps below them in LAYERS.

Read from the source with `ast` (nothing is imported), so a cycle fails here even when import order happens to
hide it at run time.
"""

import ast
import re
import unicodedata
from collections import defaultdict
from pathlib import Path

APPS_DIR = Path(__file__).resolve().parent.parent / "apps"

# Lowest first: an app may import from the apps listed before it, never from those after it.
LAYERS = (
    "kernel",
    "api",
    "organizations",
    "oauth",
    "domain_events",
    "notifications",
    "billing",
    "clubs",
    "products",
    "contacts",
    "instructors",
    "occupancy",
    "classes",
    "pricing",
    "transactions",
    "invoices",
    "memberships",
    "bookings",
    "events",
    "policies",
    "analytics",
    "content",
    "messaging",
    "forms",
    "website",
    "marketplace",
    "webhooks",
    "mcp",
    "observability",
)

# Another app's models (and enum choices) are the shared schema, not a dependency on that app's behaviour: Django
# resolves foreign keys across apps by label, so a class's seat counts may read Booking rows and a booking may
# lock its ClassOccurrence without the two apps depending on each other.
SCHEMA_MODULES = ("models", "choices")

# Imports inside a function body, allowed with the reason: a heavy library loaded on its first use, or a module
# connected in `AppConfig.ready()`, which Django runs once the app registry is populated (signal receivers and
# system checks are connected there because importing them earlier would import models before the registry exists).
FUNCTION_IMPORTS_ALLOWED = {
    ("apps.oauth.apps", "apps.oauth.authentication"): "registers the OAuth token as a bearer credential in ready()",
    ("apps.organizations.apps", "apps.organizations.checks"): "registers the deploy checks in ready()",
    ("apps.organizations.apps", "apps.organizations.api_keys"): "registers the API key credential resolver in ready()",
    ("apps.bookings.apps", "apps.bookings.contact_archive"): "connects the contact_archived receiver in ready()",
    ("apps.memberships.apps", "apps.memberships.contact_archive"): "connects the contact_archived receiver in ready()",
    ("apps.billing.apps", "apps.billing.organization_setup"): "connects the default sales account receiver in ready()",
    ("apps.website.apps", "apps.website.organization_setup"): "connects the default website receiver in ready()",
    ("apps.marketplace.apps", "apps.marketplace.freshness"): "connects the offer cache's invalidation in ready()",
    ("apps.webhooks.apps", "apps.webhooks.relay"): "connects the outbox relay in ready()",
    ("apps.invoices.views", "apps.invoices.pdf"): "fpdf2 costs every web worker 34 MB: imported when a PDF renders",
}


def _module_name(path: Path) -> tuple[str, bool]:
    parts = list(path.relative_to(APPS_DIR.parent).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts = parts[:-1]
    return ".".join(parts), is_package


def _modules() -> dict[str, tuple[ast.Module, bool]]:
    modules = {}
    for path in sorted(APPS_DIR.rglob("*.py")):
        if "migrations" in path.parts:
            continue  # frozen history, outside the layering
        name, is_package = _module_name(path)
        modules[name] = (ast.parse(path.read_text(), filename=str(path)), is_package)
    return modules


MODULES = _modules()


def _targets(module: str, is_package: bool, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The `apps.*` modules an import statement loads (`from a import b` is module `a.b` when that is a module)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module.split(".") if is_package else module.split(".")[:-1]
            package = package[: len(package) - (node.level - 1)]
            base = ".".join(package + ([node.module] if node.module else []))
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
    return sorted({name for name in names if name == "apps" or name.startswith("apps.")})


def _imports(tree: ast.Module):
    """(import node, inside a function body) for every import statement of the module."""
    found = []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                found.append((child, in_function))
            visit(child, in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda))

    visit(tree, False)
    return found


def _graphs():
    module_graph: dict[str, set[str]] = defaultdict(set)
    function_imports = []
    for module, (tree, is_package) in MODULES.items():
        for node, in_function in _imports(tree):
            for target in _targets(module, is_package, node):
                if in_function:
                    function_imports.append((module, node.lineno, target))
                else:
                    module_graph[module].add(target)
    return module_graph, function_imports


MODULE_GRAPH, FUNCTION_IMPORTS = _graphs()


def _app(module: str) -> str:
    return module.split(".")[1] if module.count(".") else ""


def _is_schema(module: str) -> bool:
    return len(module.split(".")) >= 3 and module.split(".")[2] in SCHEMA_MODULES


def _app_edges() -> dict[tuple[str, str], list[str]]:
    """(importing app, imported app) -> the module imports behind it; imports of schema modules left out."""
    edges = defaultdict(list)
    for module, targets in MODULE_GRAPH.items():
        for target in targets:
            if _app(target) and _app(target) != _app(module) and not _is_schema(target):
                edges[(_app(module), _app(target))].append(f"{module} -> {target}")
    return edges


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of `graph` as a path [a, b, ..., a], or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node):
        state[node] = 1
        path.append(node)
        for successor in sorted(graph.get(node, ())):
            if state.get(successor) == 1:
                return path[path.index(successor) :] + [successor]
            if successor not in state:
                cycle = visit(successor)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def test_the_cycle_finder_reports_a_cycle_and_accepts_a_layered_graph():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_import_reader_resolves_relative_and_submodule_imports():
    tree = ast.parse("from . import events\nfrom .models import Booking\nimport apps.api.views\n")
    targets = [t for node, _ in _imports(tree) for t in _targets("apps.bookings.channel", False, node)]
    assert targets == ["apps.bookings.events", "apps.bookings.models", "apps.api.views"]
    tree = ast.parse("from ..models import Booking\n")
    targets = [t for node, _ in _imports(tree) for t in _targets("apps.bookings.api", True, node)]
    assert targets == ["apps.bookings.models"]
    tree = ast.parse("def f():\n    from apps.bookings import services\n")
    assert [(in_function, _targets("apps.x.y", False, n)) for n, in_function in _imports(tree)] == [
        (True, ["apps.bookings.services"])
    ]


def test_no_module_import_cycle():
    assert MODULES, f"no modules found under {APPS_DIR}"
    cycle = find_cycle(MODULE_GRAPH)
    assert cycle is None, "module import cycle: " + " -> ".join(cycle)


def test_no_imports_inside_functions():
    hidden = [
        f"{module}:{line} imports {target}"
        for module, line, target in FUNCTION_IMPORTS
        if (module, target) not in FUNCTION_IMPORTS_ALLOWED
    ]
    assert hidden == [], "imports inside function bodies (import at the top; break the cycle instead):\n" + "\n".join(
        hidden
    )


def test_no_app_import_cycle():
    graph = defaultdict(set)
    for importer, imported in _app_edges():
        graph[importer].add(imported)
    cycle = find_cycle(graph)
    assert cycle is None, "app import cycle: " + " -> ".join(cycle)


def test_apps_import_only_the_apps_below_them():
    apps = {_app(module) for module in MODULES if _app(module)}
    assert apps <= set(LAYERS), f"add {sorted(apps - set(LAYERS))} to LAYERS"
    upward = [
        f"{importer} imports {imported}: {', '.join(sorted(why))}"
        for (importer, imported), why in sorted(_app_edges().items())
        if LAYERS.index(imported) > LAYERS.index(importer)
    ]
    assert upward == [], "imports against the layer order:\n" + "\n".join(upward)


def test_clubs_imports_nothing_from_bookings_or_classes():
    """Clubs sit below bookings and classes, models included: whatever needs both lives in `apps.occupancy`."""
    offending = [
        f"{module} -> {target}"
        for module, targets in MODULE_GRAPH.items()
        if _app(module) == "clubs"
        for target in targets
        if _app(target) in ("bookings", "classes")
    ]
    offending += [
        f"{module}:{line} -> {target}"
        for module, line, target in FUNCTION_IMPORTS
        if _app(module) == "clubs" and _app(target) in ("bookings", "classes")
    ]
    assert offending == []


def test_the_kernel_imports_no_app_and_has_no_models():
    """`apps.kernel` is layer 0: money, clocks and slugs that every app may use, depending on none of them."""
    offending = [
        f"{module} -> {target}"
        for module, targets in MODULE_GRAPH.items()
        if _app(module) == "kernel"
        for target in targets
        if _app(target) != "kernel"
    ]
    assert offending == []
    assert not (APPS_DIR / "kernel" / "models.py").exists()


# --- one rule, one place: money, clocks and slugs live in apps.kernel --------------------------------------------

KERNEL_ONLY_CALLS = {
    "ZoneInfo": "a time zone: apps.kernel.clock.zone / zone_of",
    "quantize": "rounding: apps.kernel.money.round_money / round_in / round_rate",
    "slugify": "a slug: apps.kernel.slugs.slugify / free_slug / save_with_unique_slug",
}
ISO_CODE = re.compile(r"^[A-Z]{3}$")


def _called_name(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _is_currency_symbol_table(node: ast.Dict) -> bool:
    """A dict literal mapping an ISO 4217 code to a text holding a currency symbol (`{"EUR": "€"}`)."""
    return any(
        isinstance(key, ast.Constant)
        and isinstance(key.value, str)
        and ISO_CODE.match(key.value)
        and isinstance(value, ast.Constant)
        and isinstance(value.value, str)
        and any(unicodedata.category(char) == "Sc" for char in value.value)
        for key, value in zip(node.keys, node.values, strict=True)
    )


def kernel_rule_breaches(modules) -> list[str]:
    found = []
    for module, (tree, _) in sorted(modules.items()):
        if _app(module) == "kernel":
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _called_name(node) in KERNEL_ONLY_CALLS:
                name = _called_name(node)
                found.append(f"{module}:{node.lineno} calls {name}(): {KERNEL_ONLY_CALLS[name]}")
            elif isinstance(node, ast.Dict) and _is_currency_symbol_table(node):
                found.append(f"{module}:{node.lineno} keeps a currency symbol table: apps.kernel.money.format_money")
    return found


def test_the_rule_finder_reports_each_kind_of_copy():
    tree = ast.parse(
        "from zoneinfo import ZoneInfo\n"
        "tz = ZoneInfo('UTC')\n"
        "cents = amount.quantize(Decimal('0.01'))\n"
        "slug = text.slugify(name)\n"
        "SYMBOLS = {'EUR': '€', 'GBP': '£'}\n"
        "FINE = {'EUR': 'euro', 'x': '€'}\n"
    )
    assert kernel_rule_breaches({"apps.x.y": (tree, False), "apps.kernel.money": (tree, False)}) == [
        "apps.x.y:2 calls ZoneInfo(): a time zone: apps.kernel.clock.zone / zone_of",
        "apps.x.y:3 calls quantize(): rounding: apps.kernel.money.round_money / round_in / round_rate",
        "apps.x.y:4 calls slugify(): a slug: apps.kernel.slugs.slugify / free_slug / save_with_unique_slug",
        "apps.x.y:5 keeps a currency symbol table: apps.kernel.money.format_money",
    ]


def test_zones_rounding_currency_symbols_and_slugs_only_in_the_kernel():
    breaches = kernel_rule_breaches(MODULES)
    assert breaches == [], "use apps.kernel instead:\n" + "\n".join(breaches)


def test_api_imports_no_domain_app():
    """`apps.api` is the plumbing every domain app builds on: it imports only itself and the kernel, models
    included. A domain app that plugs something into it registers it (credential resolvers, for example)."""
    offending = sorted(
        f"{module} -> {target}"
        for module, targets in MODULE_GRAPH.items()
        if _app(module) == "api"
        for target in targets
        if _app(target) not in ("api", "kernel")
    )
    offending += [
        f"{module}:{line} -> {target}"
        for module, line, target in FUNCTION_IMPORTS
        if _app(module) == "api" and _app(target) not in ("api", "kernel")
    ]
    assert offending == []
