"""The house's layering, read from the source with ``ast`` (nothing of Loko is imported):
entry points -> the web shell -> features -> shared plumbing, every arrow pointing down and
no circle anywhere.

Every import counts, at any level of a module (top level, inside a function, under
``TYPE_CHECKING``), written ``import loko.x`` or ``from loko.x import y``; ``from loko.x
import y`` is an arrow to ``loko.x.y`` when that is a module, else to ``loko.x``. A package's
``__init__`` may gather its own submodules (a blueprint its routes, ``repohost.providers`` its
providers, the app factory every blueprint) while they import what it defines: an import of
one's own package is left out, as importing a module runs its packages' ``__init__`` first
anyway. The arrows from an ``__init__`` down to its submodules stay, so a circle through
them is still found."""

import ast
from pathlib import Path

import pytest

# One process compiles and runs what this module's tests share.
pytestmark = pytest.mark.xdist_group("test_import_layers")

LOKO = Path(__file__).resolve().parents[2] / "loko"

# Shared plumbing: every layer uses it; it knows nothing above it. ``loko.database`` may be a
# module or a package; either way its parts are plumbing. ``loko.checks`` is to come.
PLUMBING = (
    "loko.checks",
    # The cyclic garbage collector paused around bulk passes (the checks, undo, bulk writes).
    "loko.collector",
    "loko.config",
    "loko.database",
    "loko.errors",
    # Domain events: the write paths raise them, the webhooks register to listen.
    "loko.events",
    "loko.extensions",
    "loko.fields",
    "loko.formats",
    "loko.http",
    # The queue and its worker: features import them to enqueue and register handlers.
    "loko.jobs.maintenance",
    "loko.jobs.models",
    "loko.jobs.registry",
    "loko.jobs.service",
    "loko.jobs.worker",
    "loko.logging",
    # The guarded outbound HTTP client and the secrets' encryption: repohost, webhooks and
    # machine translation all call out and keep secrets through them.
    "loko.outbound",
    "loko.secrets",
    # The pipeline client imports nothing of the server, so the table of formats both use
    # (extensions and the detection of a file's format) is the client's; it imports nothing.
    "loko.client.formats",
    # The canonical form of a language code (BCP 47 casing, the IANA registry): the fields,
    # the client and the imports read codes with it; it imports nothing of Loko.
    "loko.languages.codes",
)
# The shell of the web app: layout, CSRF, page rendering and page errors. Features' pages
# (their views) use it; no feature's service does.
WEB = ("loko.web",)
# What a request, a command or a program enters by. The app factory (``loko/__init__``)
# gathers them all; the pipeline client is a program of its own; the MCP endpoint and the
# migrations are run, never imported by a feature.
ENTRY_PACKAGES = (
    "loko.__main__",
    "loko.cli",
    "loko.client",
    "loko.entry",
    "loko.mcp",
    "loko.migrations",
    "loko.openapi",
    "loko.serving",
    # The pages that show the core and the workbench together (the editor, the overview).
    "loko.workspace",
)
ENTRY_MODULES = ("api", "views")
RANKS = {"plumbing": 0, "feature": 1, "web": 2, "entry": 3}


def module_names(root: Path = LOKO) -> dict[str, Path]:
    """Every module under ``root`` by dotted name (a package by its own name)."""
    modules = {}
    for path in sorted(root.rglob("*.py")):
        parts = [root.name, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _nearest_module(name: str, modules: dict) -> str | None:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _imported(node: ast.AST, package: str, modules: dict) -> set[str]:
    """The modules of ``modules`` one import statement reaches."""
    if isinstance(node, ast.Import):
        return {_nearest_module(alias.name, modules) for alias in node.names}
    if not isinstance(node, ast.ImportFrom):
        return set()
    if node.level:
        base = package.split(".")
        base = base[: len(base) - (node.level - 1)]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    reached = set()
    for alias in node.names:
        submodule = f"{source}.{alias.name}"
        reached.add(submodule if submodule in modules else _nearest_module(source, modules))
    return reached


def is_within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def import_graph(root: Path = LOKO) -> dict[str, set[str]]:
    """``{module: the modules it imports}``, for every module under ``root``."""
    modules = module_names(root)
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        arrows = set()
        for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
            arrows |= _imported(node, package, modules)
        graph[name] = {target for target in arrows if target is not None and not is_within(name, target)}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, each sorted (Tarjan's
    algorithm, without recursion)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in graph:
                    continue
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def layer_of(module: str) -> str:
    if any(is_within(module, low) for low in PLUMBING):
        return "plumbing"
    if module == "loko" or any(is_within(module, entry) for entry in ENTRY_PACKAGES):
        return "entry"
    if any(part in ENTRY_MODULES for part in module.split(".")[2:]):
        return "entry"
    if any(is_within(module, web) for web in WEB):
        return "web"
    return "feature"


def upward_arrows(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Every import of a module in a higher layer than the importer's."""
    return sorted(
        (source, target)
        for source, targets in graph.items()
        for target in targets
        if RANKS[layer_of(target)] > RANKS[layer_of(source)]
    )


def _arrows(pairs) -> str:
    return "\n".join(f"  {source} -> {target}" for source, target in pairs)


@pytest.fixture(scope="module")
def graph():
    return import_graph()


def test_the_modules_import_each_other_without_a_circle(graph):
    found = circles(graph)
    described = "\n".join(
        f"  {', '.join(circle)}\n" + _arrows((a, b) for a in circle for b in sorted(graph[a]) if b in circle)
        for circle in found
    )
    assert not found, f"import circles (modules, then the arrows between them):\n{described}"


def test_shared_plumbing_imports_no_feature_no_page_and_no_entry_point(graph):
    wrong = [
        (source, target)
        for source, targets in graph.items()
        if layer_of(source) == "plumbing"
        for target in targets
        if layer_of(target) != "plumbing"
    ]
    assert not wrong, f"shared plumbing importing what is above it:\n{_arrows(sorted(wrong))}"


def test_no_service_imports_a_page_or_an_endpoint(graph):
    wrong = [
        (source, target)
        for source, targets in graph.items()
        if layer_of(source) == "feature"
        for target in targets
        if layer_of(target) in ("web", "entry")
    ]
    assert not wrong, f"features importing pages or endpoints:\n{_arrows(sorted(wrong))}"


def test_every_arrow_points_down(graph):
    assert not upward_arrows(graph), f"upward imports:\n{_arrows(upward_arrows(graph))}"


def test_the_graph_knows_the_layers(graph):
    assert layer_of("loko.errors") == "plumbing"
    assert layer_of("loko.formats.po") == "plumbing"
    assert layer_of("loko.client.formats") == "plumbing"
    assert layer_of("loko.client.commands") == "entry"
    assert layer_of("loko.projects.service") == "feature"
    assert layer_of("loko.translations.views") == "entry"
    assert layer_of("loko.web.pages") == "web"
    assert {"loko.errors", "loko.projects.service", "loko.web.pages"} <= graph.keys()


# The reading itself, on a small made-up package.


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "loko" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / "loko"


def test_imports_inside_functions_and_both_spellings_are_arrows(tmp_path):
    root = _write(
        tmp_path,
        {
            "__init__.py": "",
            "errors.py": "def handler():\n    from loko.web import pages\n",
            "web/__init__.py": "",
            "web/pages.py": "import loko.errors\n",
        },
    )
    graph = import_graph(root)
    assert graph["loko.errors"] == {"loko.web.pages"}
    assert graph["loko.web.pages"] == {"loko.errors"}
    assert circles(graph) == [["loko.errors", "loko.web.pages"]]
    assert upward_arrows(graph) == [("loko.errors", "loko.web.pages")]


def test_a_package_gathering_its_own_submodules_is_no_circle(tmp_path):
    root = _write(
        tmp_path,
        {
            "__init__.py": "def create_app():\n    from loko.things.views import ui\n",
            "things/__init__.py": "",
            "things/views/__init__.py": "ui = 1\nfrom loko.things.views import editor\n",
            "things/views/editor.py": "from loko.things.views import ui\n",
        },
    )
    graph = import_graph(root)
    assert graph["loko"] == {"loko.things.views"}
    assert graph["loko.things.views"] == {"loko.things.views.editor"}
    assert graph["loko.things.views.editor"] == set()
    assert circles(graph) == []


def test_database_as_a_package_is_plumbing_too(tmp_path):
    root = _write(
        tmp_path,
        {
            "__init__.py": "",
            "database/__init__.py": "from loko.database.engine import connect\n",
            "database/engine.py": "from loko.projects.service import thing\n",
            "projects/__init__.py": "",
            "projects/service.py": "from loko.database import connect\n",
        },
    )
    graph = import_graph(root)
    assert layer_of("loko.database.engine") == "plumbing"
    assert upward_arrows(graph) == [("loko.database.engine", "loko.projects.service")]
    assert circles(graph) == [["loko.database", "loko.database.engine", "loko.projects.service"]]
