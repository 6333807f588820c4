"""The core packages never import Streamlit, nor do the command lines (cli/) that stand on them."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_core_imports_no_streamlit() -> None:
    modules = sorted(
        ".".join(p.relative_to(ROOT).with_suffix("").parts)
        for pkg in ("ingest", "rag", "cli")
        for p in (ROOT / pkg).rglob("*.py")
    )
    assert "rag.citations.grammar" in modules and "ingest.ids" in modules and "cli.ingest" in modules
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m == 'streamlit' or m.startswith('streamlit.'))\n"
        "print(','.join(bad))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "", f"streamlit imported by the core: {done.stdout}"


def _imports(path: Path) -> set[str]:
    """Every module a file names in an import, wherever it sits (typing blocks and functions too)."""
    import ast

    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:  # from ingest import store: both names
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_no_module_of_the_core_imports_one_that_imports_it() -> None:
    graph = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts): _imports(p)
        for pkg in ("ingest", "rag")
        for p in (ROOT / pkg).rglob("*.py")
    }
    assert "ingest.local.library" in graph["ingest.local.recovery"]  # the scan sees imports
    cycles = sorted(
        f"{a} <-> {b}" for a, deps in graph.items() for b in deps if a < b and a in graph.get(b, ())
    )
    assert cycles == [], f"modules that import each other: {cycles}"


def test_the_core_never_reads_settings() -> None:
    readers = sorted(
        name
        for name, path in (
            (".".join(p.relative_to(ROOT).with_suffix("").parts), p)
            for pkg in ("ingest", "rag")
            for p in (ROOT / pkg).rglob("*.py")
        )
        if {"settings", "wiring"} & _imports(path)
    )
    assert readers == [], f"core modules that import settings: {readers}"


def test_the_product_never_imports_bench() -> None:
    files = [p for pkg in ("ingest", "rag", "components", "pages") for p in (ROOT / pkg).rglob("*.py")]
    files += [ROOT / name for name in ("app.py", "wiring.py", "settings.py")]
    assert ROOT / "rag" / "offline" / "rules" / "table.py" in files
    importers = sorted(
        p.relative_to(ROOT).as_posix()
        for p in files
        if any(name == "bench" or name.startswith("bench.") for name in _imports(p))
    )
    assert importers == [], f"product modules that import bench: {importers}"
