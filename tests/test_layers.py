"""Imports only go down the layers: pages -> components -> rag -> ingest, inside each core package
from one capability to those below it, and inside components/ from a page's room to the shared ones
(the order docs/architecture.md draws)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Lowest first. A module belongs to the longest prefix that names it; it may import its own
# layer and any layer before it. Entry points (__main__, app.py, pages) sit above everything.
LAYERS = (
    ("ingest.types", "ingest.errors", "ingest.ids", "ingest.rows", "ingest.text"),
    ("ingest.pdf",),
    ("ingest.minilm", "ingest.embeddings"),
    ("ingest.prepare", "ingest.jobs"),
    ("ingest.local",),
    ("ingest.team",),
    ("ingest.worker", "ingest.cli", "ingest.backend", "ingest"),
    ("rag.figures", "rag.types", "rag.citations"),
    ("rag.text", "rag.prompts", "rag.relevance"),
    ("rag.questions",),
    ("rag.passages",),
    ("rag.retrieval",),
    ("rag.compute",),
    ("rag.offline",),
    ("rag.answering",),
    ("rag.stores",),
    ("rag.audit", "rag"),
    ("components.shared",),
    ("components.panel",),
    ("components.chat", "components.library", "components.audit", "components"),
)


def _layer_of(module: str) -> int | None:
    best, found = -1, None
    for i, names in enumerate(LAYERS):
        for name in names:
            if (module == name or module.startswith(name + ".")) and len(name) > best:
                best, found = len(name), i
    return found


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """The project modules a file imports, wherever the import sits (functions and typing too)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            # `from rag.stores import verdicts` names the module rag.stores.verdicts
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {n for n in names if n.split(".")[0] in ("ingest", "rag", "components")}


def _layered_files(root: Path) -> list[Path]:
    return sorted(
        p
        for pkg in ("ingest", "rag", "components")
        for p in (root / pkg).rglob("*.py")
        if p.name != "__main__.py"
    )


def _upward_imports(root: Path) -> list[str]:
    bad = []
    for path in _layered_files(root):
        module = _module_name(path, root)
        own = _layer_of(module)
        assert own is not None, f"{module} is in no layer: add it to LAYERS"
        for target in sorted(_imports(path)):
            layer = _layer_of(target)
            if layer is not None and layer > own:
                bad.append(f"{module} imports {target}")
    return bad


def test_every_core_module_has_a_layer_and_imports_go_down() -> None:
    assert _upward_imports(ROOT) == []


def test_the_scan_reports_an_upward_import(tmp_path: Path) -> None:
    # The check itself: ingest reaching up into rag, or retrieval into the answer stream, is caught.
    (tmp_path / "ingest" / "pdf").mkdir(parents=True)
    (tmp_path / "ingest" / "pdf" / "reader.py").write_text(
        "from rag.retrieval import retrieve\n", encoding="utf-8"
    )
    (tmp_path / "rag" / "retrieval").mkdir(parents=True)
    (tmp_path / "rag" / "retrieval" / "pages.py").write_text(
        "def f():\n    import rag.answering.answer\n    from rag.passages.rows import parse_row\n",
        encoding="utf-8",
    )
    assert _upward_imports(tmp_path) == [
        "ingest.pdf.reader imports rag.retrieval",
        "ingest.pdf.reader imports rag.retrieval.retrieve",
        "rag.retrieval.pages imports rag.answering.answer",
    ]
