"""Imports only go down the layers: pages -> components -> settings and wiring -> rag -> ingest,
inside each core package from one capability to those below it, and inside components/ from a
page's room to the shared ones (the order docs/architecture.md draws). The command lines (cli/)
stand beside the pages on settings and wiring, and nothing of the product imports them."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Lowest first. A module belongs to the longest prefix that names it; it may import its own
# layer and any layer before it. No module is exempt, entry points included.
LAYERS = (
    ("ingest.types", "ingest.errors", "ingest.ids", "ingest.rows", "ingest.text"),
    ("ingest.pdf",),
    ("ingest.minilm", "ingest.embeddings"),
    ("ingest.prepare", "ingest.jobs"),
    ("ingest.local",),
    ("ingest.team",),
    ("ingest.worker", "ingest.backfill", "ingest.backend", "ingest"),
    ("rag.compute.figures", "rag.types", "rag.citations"),
    ("rag.text", "rag.prompts", "rag.relevance", "rag.values"),
    (
        "rag.questions",
        "rag.compute.formula",
        "rag.compute.metrics",
        "rag.compute.question_text",
        "rag.compute.question",
        "rag.sections.question",
        "rag.judgement.question",
    ),
    ("rag.tables",),
    ("rag.passages",),
    ("rag.retrieval", "rag.sections.retrieval", "rag.judgement.rows"),
    ("rag.compute",),
    ("rag.offline", "rag.sections.answer", "rag.judgement.answer"),
    ("rag.answering",),
    ("rag.stores",),
    ("rag.audit", "rag"),
    ("settings", "wiring"),
    ("components.shared",),
    ("components.panel",),
    ("components.chat", "components.library", "components.audit", "components"),
    ("app", "pages"),
)
# A branch of its own: these stand on the layer named (and so on every one below it), never on
# the layers above it, and no layer imports them (tests and bench may).
BRANCHES = {"cli": "wiring"}
SCANNED = ("ingest", "rag", "components", "pages", "cli", "app.py", "settings.py", "wiring.py")
TOPS = {"ingest", "rag", "components", "pages", "cli", "app", "settings", "wiring"}


def _layer_of(module: str) -> int | None:
    best, found = -1, None
    for i, names in enumerate(LAYERS):
        for name in names:
            if (module == name or module.startswith(name + ".")) and len(name) > best:
                best, found = len(name), i
    return found


def _branch_of(module: str) -> str | None:
    return next((b for b in BRANCHES if module == b or module.startswith(b + ".")), None)


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
    return {n for n in names if n.split(".")[0] in TOPS}


def _layered_files(root: Path) -> list[Path]:
    files = [root / name for name in SCANNED if name.endswith(".py") and (root / name).is_file()]
    files += [p for name in SCANNED if (root / name).is_dir() for p in (root / name).rglob("*.py")]
    return sorted(files)


def _allowed(module: str, target: str) -> bool:
    """Whether ``module`` may import ``target``; a module in no layer (AssertionError) must be given one."""
    own_branch, target_branch = _branch_of(module), _branch_of(target)
    if target_branch is not None:
        return own_branch == target_branch
    layer = _layer_of(target)
    if layer is None:
        return True  # not a project module after all (a name that only starts like one)
    if own_branch is not None:
        return layer <= _layer_of(BRANCHES[own_branch])
    own = _layer_of(module)
    assert own is not None, f"{module} is in no layer: add it to LAYERS"
    return layer <= own


def _upward_imports(root: Path) -> list[str]:
    bad = []
    for path in _layered_files(root):
        module = _module_name(path, root)
        for target in sorted(_imports(path)):
            if not _allowed(module, target):
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
    # An entry point of the core reaching up to the settings, a page's room to a command line, a
    # command line to Streamlit's rooms: caught as well.
    (tmp_path / "ingest" / "__main__.py").write_text("from wiring import library_inputs\n", encoding="utf-8")
    (tmp_path / "components" / "chat").mkdir(parents=True)
    (tmp_path / "components" / "chat" / "view.py").write_text("import cli.ingest\n", encoding="utf-8")
    (tmp_path / "cli").mkdir()
    (tmp_path / "cli" / "rag.py").write_text(
        "import cli.output\nfrom components.shared import state\nfrom wiring import open_reader\n",
        encoding="utf-8",
    )
    assert _upward_imports(tmp_path) == [
        "cli.rag imports components.shared",
        "cli.rag imports components.shared.state",
        "components.chat.view imports cli.ingest",
        "ingest.__main__ imports wiring",
        "ingest.__main__ imports wiring.library_inputs",
        "ingest.pdf.reader imports rag.retrieval",
        "ingest.pdf.reader imports rag.retrieval.retrieve",
        "rag.retrieval.pages imports rag.answering.answer",
    ]
