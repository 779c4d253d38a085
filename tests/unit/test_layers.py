"""The storeys (docs/architecture.md): the workspace's pages on top, the workbench (quality,
memory, glossary, machine, comments, webhooks, audit) above the core (translations, files,
languages, projects), the core above the foundations. import-linter holds them with the
contracts in pyproject.toml; the package graph read by ``test_import_layers`` counts the
packages that import each other."""

from pathlib import Path

import pytest
from importlinter.cli import lint_imports

from loko import events
from tests.unit.test_import_layers import circles, import_graph

pytestmark = pytest.mark.xdist_group("test_import_layers")

ROOT = Path(__file__).resolve().parents[2]
CORE = ("loko.translations", "loko.files", "loko.languages", "loko.projects")
WORKBENCH = (
    "loko.quality",
    "loko.memory",
    "loko.glossary",
    "loko.machine",
    "loko.comments",
    "loko.webhooks",
    "loko.audit",
    "loko.checks",
    "loko.screenshots",
    "loko.replace",
    "loko.proposals",
    "loko.tags",
)
# Pairs of packages importing each other: 27 before the core stopped importing the workbench,
# 17 since. A new pair is a circle to take apart, not a number to raise.
MUTUAL_PAIRS_AT_MOST = 17


def package_of(module: str) -> str:
    return ".".join(module.split(".")[:2])


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """``{package: the packages it imports}`` over loko's top-level packages and modules; the
    root (the app factory, which gathers them all) left out."""
    packages = {}
    for source, targets in graph.items():
        if source == "loko":
            continue
        imported = packages.setdefault(package_of(source), set())
        imported |= {package_of(target) for target in targets if target != "loko"}
    for package, imported in packages.items():
        imported.discard(package)
    return packages


def mutual_pairs(packages: dict[str, set[str]]) -> list[tuple[str, str]]:
    return sorted(
        (a, b) for a, imported in packages.items() for b in imported if a < b and a in packages.get(b, ())
    )


@pytest.fixture(scope="module")
def packages():
    return package_graph(import_graph())


def test_the_import_contracts_hold(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    code = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True)
    assert code == 0, capsys.readouterr().out


def test_no_core_package_imports_a_workbench_one(packages):
    wrong = sorted((core, target) for core in CORE for target in packages[core] if target in WORKBENCH)
    assert not wrong, f"the core importing the workbench: {wrong}"


def test_no_circle_runs_through_the_core_and_the_workbench(packages):
    storeys = CORE + WORKBENCH
    graph = {package: packages[package] & set(storeys) for package in storeys}
    mixed = [
        circle
        for circle in circles(graph)
        if any(package in CORE for package in circle) and any(package in WORKBENCH for package in circle)
    ]
    assert not mixed, f"circles through the core and the workbench: {mixed}"


def test_fewer_packages_import_each_other(packages):
    pairs = mutual_pairs(packages)
    assert len(pairs) <= MUTUAL_PAIRS_AT_MOST, "\n".join(f"  {a} <-> {b}" for a, b in pairs)


def test_the_package_graph_counts_each_pair_once():
    packages = package_graph(
        {
            "loko": {"loko.a"},
            "loko.a.service": {"loko.b.models", "loko.a.models"},
            "loko.a.models": set(),
            "loko.b.models": set(),
            "loko.b.service": {"loko.a.service", "loko"},
            "loko.c": {"loko.a.service"},
        }
    )
    assert packages == {"loko.a": {"loko.b"}, "loko.b": {"loko.a"}, "loko.c": {"loko.a"}}
    assert mutual_pairs(packages) == [("loko.a", "loko.b")]


def test_a_write_without_a_write_listener_says_so(monkeypatch):
    monkeypatch.setattr(events, "WRITE_LISTENERS", [])
    with pytest.raises(LookupError, match="create_app"):
        events.key_before(None, "project", "file.json", "key")
    assert events.values_written("project", [], None) == 0
