"""Both backends keep the one contract of what the answering core reads (ingest.types.LibraryReader):
every method with the same signature, every property a property, every attribute set when opened;
and rag/ asks a library for nothing the contract does not name."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Sequence
from pathlib import Path

import pytest

from ingest.embeddings import HashEmbeddings
from ingest.local.library import Library
from ingest.local.library_reads import LibraryReads
from ingest.team.library import PgLibrary
from ingest.team.library_reads import PgLibraryReads
from ingest.team.store import DEFAULT_HNSW
from ingest.types import Chunk, LibraryReader, LibrarySettings

ROOT = Path(__file__).resolve().parents[2]
ATTRIBUTES = sorted(LibraryReader.__annotations__)
MEMBERS = {name: member for name, member in vars(LibraryReader).items() if not name.startswith("_")}


def _signature(function: object) -> inspect.Signature:
    return inspect.signature(function, eval_str=True)  # annotations as types, not as spelled


def contract_problems(cls: type, opened: object) -> list[str]:
    """What cls (and ``opened``, one of its instances) lacks of LibraryReader, one line each."""
    problems = [f"{cls.__name__} sets no {name}" for name in ATTRIBUTES if name not in vars(opened)]
    for name, wanted in MEMBERS.items():
        found = inspect.getattr_static(cls, name, None)
        if found is None:
            problems.append(f"{cls.__name__} has no {name}")
        elif isinstance(wanted, property) != isinstance(found, property):
            problems.append(f"{cls.__name__}.{name} is {'not ' * isinstance(wanted, property)}a property")
        else:
            want, have = (f.fget if isinstance(f, property) else f for f in (wanted, found))
            if _signature(want) != _signature(have):
                problems.append(f"{cls.__name__}.{name}{_signature(have)} is not {name}{_signature(want)}")
    return problems


def _local(cls: type = Library) -> object:
    # The constructors touch neither disk nor server: only the attributes they set are looked at.
    return cls(Path("/nonexistent"), HashEmbeddings(8), LibrarySettings("fake:hash:8"))


def _team(cls: type = PgLibrary) -> object:
    return cls(
        "postgresql://nobody@/nowhere", HashEmbeddings(8), LibrarySettings("fake:hash:8"), DEFAULT_HNSW
    )


def test_the_contract_names_what_the_answering_core_reads() -> None:
    assert ATTRIBUTES == ["config", "embeddings", "open_report"]
    assert {"chunks_by_id", "chunk_pages", "lexical_search", "has_lexical_search", "cache_dir"} <= set(
        MEMBERS
    )


@pytest.mark.parametrize(("cls", "opened"), [(Library, _local), (PgLibrary, _team)], ids=["local", "team"])
def test_both_backends_keep_every_member_of_the_contract(cls: type, opened) -> None:
    assert contract_problems(cls, opened()) == []


def _without(base: type, name: str) -> type:
    """base's own reads with one left out (as PgLibrary was before chunks_by_id was on it)."""
    return type(f"No{name}", (), {k: v for k, v in vars(base).items() if k != name})


class _ChunksByIdRenamed(PgLibrary):
    def chunks_by_id(self, ids: Sequence[str]) -> dict[str, Chunk]:  # a parameter renamed
        return super().chunks_by_id(ids)


class _GenerationAsMethod(Library):
    def generation(self) -> int:  # type: ignore[override]  # a property turned into a method
        return 0


class _NoOpenReport(Library):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        del self.open_report


@pytest.mark.parametrize(
    ("cls", "opened", "expected"),
    [
        (_without(PgLibraryReads, "chunks_by_id"), _team, "Nochunks_by_id has no chunks_by_id"),
        (_without(LibraryReads, "lexical_search"), _local, "Nolexical_search has no lexical_search"),
        (_ChunksByIdRenamed, _team, "_ChunksByIdRenamed.chunks_by_id(self, ids: collections.abc.Sequence"),
        (_GenerationAsMethod, _local, "_GenerationAsMethod.generation is not a property"),
        (_NoOpenReport, _local, "_NoOpenReport sets no open_report"),
    ],
    ids=["missing-team", "missing-local", "signature", "property", "attribute"],
)
def test_a_backend_that_breaks_the_contract_is_named(cls: type, opened, expected: str) -> None:
    instance = opened(cls) if cls.__init__ is not object.__init__ else opened()
    problems = contract_problems(cls, instance)
    assert len(problems) == 1 and problems[0].startswith(expected), problems


def _asks_a_library_by_name(path: Path) -> list[str]:
    """hasattr/getattr calls on a variable called library: a read steered around the contract."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("hasattr", "getattr")
            and node.args
            and isinstance(node.args[0], ast.Name)
            and "library" in node.args[0].id
        ):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_the_answering_core_never_tests_a_library_for_a_member() -> None:
    assert [
        hit for path in sorted((ROOT / "rag").rglob("*.py")) for hit in _asks_a_library_by_name(path)
    ] == []
