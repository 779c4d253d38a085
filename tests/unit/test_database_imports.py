"""The database layer sits below every feature: its modules import only each other and
``loko.extensions``, never a feature package or the web shell."""

import ast
from pathlib import Path

import loko.database

PACKAGE = Path(loko.database.__file__).parent


def loko_imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return {name for name in names if name == "loko" or name.startswith("loko.")}


def test_database_modules_import_no_feature():
    above = {
        str(path.relative_to(PACKAGE)): sorted(
            name
            for name in loko_imports(path)
            if name != "loko.extensions" and not name.startswith("loko.database")
        )
        for path in sorted(PACKAGE.rglob("*.py"))
    }
    assert {path: names for path, names in above.items() if names} == {}
