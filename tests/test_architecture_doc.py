"""docs/architecture.md matches the code: every file it names exists, every dotted name it gives
(module, function, class, method) is defined where it says, and every subpackage of the core and
of components/ has a row."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
PACKAGES = ("ingest", "rag", "components", "pages", "cli")
PATH = re.compile(r"\b(?:" + "|".join(PACKAGES) + r")/[\w/]*(?:\.py|/)")


def _code_spans() -> list[str]:
    return re.findall(r"`([^`\n]+)`", DOC.read_text(encoding="utf-8"))


def _paths() -> list[str]:
    """Paths as written, and a package row's bare module names (`reader.py`) inside its folder."""
    found = []
    for span in _code_spans():
        found += PATH.findall(span)
    for row in re.findall(
        r"^\| `((?:ingest|rag|components)/\w+/)` \|(.*)$", DOC.read_text(encoding="utf-8"), re.M
    ):
        found += [row[0] + name for name in re.findall(r"`(\w+\.py)`", row[1])]
    return found


def _dotted() -> list[str]:
    found = []
    for span in _code_spans():
        # not a file name inside a folder (cli/ingest.py is a path, not the name ingest.py)
        found += re.findall(r"(?<!/)\b(?:ingest|rag|components|cli)(?:\.\w+)+", span)
    return found


def _defined(path: Path, names: list[str]) -> bool:
    """Whether ``a.b`` is defined in the file: a top-level name, then a name inside that class."""
    body = ast.parse(path.read_text(encoding="utf-8")).body
    for name in names:
        match = [
            n
            for n in body
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and n.name == name
        ]
        match += [
            n
            for n in body
            if isinstance(n, ast.Assign | ast.AnnAssign)
            and name
            in {
                t.id
                for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                if isinstance(t, ast.Name)
            }
        ]
        if not match:
            return False
        body = getattr(match[0], "body", [])
    return True


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:cut])
        for module in (base.with_suffix(".py"), base / "__init__.py"):
            if module.is_file():
                return _defined(module, parts[cut:])
    return False


def test_the_page_names_files_and_names() -> None:
    assert len(_paths()) > 40 and len(_dotted()) > 20  # the scan reads the page


def test_every_file_the_page_names_exists() -> None:
    missing = sorted({p for p in _paths() if not (ROOT / p).exists()})
    assert missing == []


def test_every_dotted_name_the_page_gives_is_defined_there() -> None:
    wrong = sorted({d for d in _dotted() if not _resolves(d)})
    assert wrong == []


def test_a_wrong_name_would_be_caught() -> None:
    assert _resolves("rag.retrieval.retrieve.search_evidence")
    assert not _resolves("rag.retrieval.retrieve.no_such_function")
    assert not _resolves("rag.no_such_module")


def test_every_subpackage_of_the_core_and_of_components_is_on_the_page() -> None:
    text = DOC.read_text(encoding="utf-8")
    packages = sorted(
        f"{p.parent.relative_to(ROOT).as_posix()}/"
        for pkg in ("ingest", "rag", "components")
        for p in (ROOT / pkg).glob("*/__init__.py")
    )
    assert packages and [p for p in packages if f"`{p}`" not in text] == []
