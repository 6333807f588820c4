"""A question's text is read by one function, rag.questions.read.read_question (issue 41): no core
function takes the question as text but the few edges listed here, each with its reason, and no
module outside rag/questions (and the computed figure's question modules) calls the readers of a question's parts. The prompt rag.prompts lays
out for a model is read back by nobody: the offline answerer is given the question and the evidence
as values (issue 52). tests/rag/test_read.py checks that the answer stream calls the one reader
once per question and hands the offline answerer its values."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = ("rag", "ingest")
# The names the core gives a question: such a parameter is the read value.
QUESTION_NAMES = frozenset({"question", "asked"})
READ = "Question"
# Where a question comes in as text, and where its text is only passed on.
EDGES = {
    "rag.answering.answer.answer_stream": "the answer stream: the question comes in and is read once",
    "rag.retrieval.retriever.LibraryRetriever._get_relevant_documents": "LangChain's retriever API gives text",
    "rag.retrieval.retriever.LibraryRetriever._aget_relevant_documents": "the same, async: passed on as is",
    "rag.answering.answer.build_answer": "keeps the text in the Answer (the UI saves interrupted ones too)",
    "rag.prompts.build_messages": "lays the text out for the model, which gets text",
}
# A `query` is the words to search for: made from the read question (Question.search) or typed
# into the library search, never the question itself.
SEARCHES = frozenset(
    {
        "rag.retrieval.lexical.LexicalIndex.search",
        "rag.retrieval.lexical.LexicalIndex.scores",
        "rag.retrieval.retrieve._OwnLexical.search",
        "rag.retrieval.retrieve._OwnLexical.scores",
        "rag.retrieval.retrieve._rankings",
        "rag.retrieval.page_stage.page_order",
        "ingest.types.LibraryReader.lexical_search",
        "ingest.local.library_reads.LibraryReads.lexical_search",
        "ingest.team.library_reads.PgLibraryReads.lexical_search",
        "ingest.team.read.lexical_search",
    }
)
# The readers of a question's parts (rag/questions/), which only read_question calls, and the
# modules that call read_question itself: the edges.
PART_READERS = frozenset(
    "read_request read_concepts read_asked names_in question_proper without_framing expand_question "
    "expansions synonym_groups read_periods written_names read_written read_section".split()
)
READ_AT = frozenset({"rag.answering.answer", "rag.retrieval.retriever"})
# The modules of a feature's home that read_question reads the question with (on rag.questions'
# layer, tests/test_layers.py): they read its parts as rag/questions does.
QUESTION_STAGE = (
    "rag.questions",
    "rag.compute.question",
    "rag.compute.question_text",
    "rag.compute.metrics",
    "rag.compute.formula",
)
# The prompt's layout, named only where it is written (rag.prompts); a module naming one of these
# elsewhere would be reading a prompt back. The offline answerer imports nothing of LangChain: it
# is given values, never messages.
PROMPT = "rag.prompts"
LAYOUT = frozenset(
    "SOURCE_HEADER CONTEXT_PREFIX SOURCES_END QUESTION_HEADER TASK_PROMPT HISTORY_TEMPLATE".split()
)
OFFLINE = "rag.offline"


def _module(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _functions(root: Path) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """(module.qualified.name, node) of every function and method of the core packages."""

    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                yield f"{prefix}.{child.name}", child
                yield from walk(child, f"{prefix}.{child.name}")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, f"{prefix}.{child.name}")

    for package in CORE:
        for path in sorted((root / package).rglob("*.py")):
            yield from walk(ast.parse(path.read_text(encoding="utf-8")), _module(path, root))


def text_parameters(root: Path) -> list[str]:
    """The parameters that take a question (or a query) as text where no edge or search is listed."""
    found = []
    for name, node in _functions(root):
        args = node.args
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
            kind = ast.unparse(arg.annotation) if arg.annotation else ""
            if arg.arg in QUESTION_NAMES and kind != READ and name not in EDGES:
                found.append(f"{name}({arg.arg}: {kind or '?'})")
            elif arg.arg == "query" and kind in ("str", "") and name not in SEARCHES | EDGES.keys():
                found.append(f"{name}(query: {kind or '?'})")
    return found


def reader_calls(root: Path) -> list[str]:
    """The modules outside rag/questions that name a part reader, and those that name
    read_question without being an edge (READ_AT)."""
    found = []
    for package in (*CORE, "components", "pages"):
        for path in sorted((root / package).rglob("*.py")):
            module = _module(path, root)
            if module.startswith(QUESTION_STAGE):
                continue
            names = set()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom):
                    names.update(alias.name for alias in node.names)
                elif isinstance(node, ast.Attribute):
                    names.add(node.attr)
            found += [f"{module}: {n}" for n in sorted(names & PART_READERS)]
            if "read_question" in names and module not in READ_AT:
                found.append(f"{module}: read_question")
    return found


def prompt_readers(root: Path) -> list[str]:
    """The modules but rag.prompts that name the prompt's layout, and the offline answerer's
    modules that import LangChain."""
    found = []
    for package in (*CORE, "components", "pages"):
        for path in sorted((root / package).rglob("*.py")):
            module = _module(path, root)
            names, imported = set(), set()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom):
                    names.update(alias.name for alias in node.names)
                    imported.add(node.module or "")
                elif isinstance(node, ast.Import):
                    imported.update(alias.name for alias in node.names)
                elif isinstance(node, ast.Attribute):
                    names.add(node.attr)
                elif isinstance(node, ast.Name):
                    names.add(node.id)
            if module != PROMPT:
                found += [f"{module}: {n}" for n in sorted(names & LAYOUT)]
            if module == OFFLINE or module.startswith(OFFLINE + "."):
                found += [
                    f"{module}: {m}" for m in sorted(imported) if m.split(".")[0].startswith("langchain")
                ]
    return found


def test_no_core_function_but_the_edges_takes_a_question_as_text() -> None:
    assert text_parameters(ROOT) == []


def test_every_listed_edge_and_search_is_still_there() -> None:
    names = {name for name, _ in _functions(ROOT)}
    assert set(EDGES) | SEARCHES <= names


def test_only_read_question_reads_a_questions_parts() -> None:
    assert reader_calls(ROOT) == []


def test_no_one_reads_the_prompt_back() -> None:
    assert prompt_readers(ROOT) == []


def test_the_scans_report_a_question_taken_as_text(tmp_path: Path) -> None:
    # The checks themselves: a stage taking the text, a search outside the list, a part read again.
    (tmp_path / "rag" / "retrieval").mkdir(parents=True)
    (tmp_path / "ingest").mkdir()
    (tmp_path / "rag" / "retrieval" / "stage.py").write_text(
        "from rag.questions.shorthand import expand_question\n"
        "def rank(question: str, k: int): ...\n"
        "class Pages:\n"
        "    def pick(self, asked, query: str): ...\n"
        "    def fine(self, question: Question, query: list[float]): ...\n",
        encoding="utf-8",
    )
    assert text_parameters(tmp_path) == [
        "rag.retrieval.stage.rank(question: str)",
        "rag.retrieval.stage.Pages.pick(asked: ?)",
        "rag.retrieval.stage.Pages.pick(query: str)",
    ]
    assert reader_calls(tmp_path) == ["rag.retrieval.stage: expand_question"]
    # A prompt read back: its layout named outside rag.prompts, LangChain messages in the answerer.
    (tmp_path / "rag" / "offline").mkdir()
    (tmp_path / "rag" / "prompts.py").write_text("SOURCES_END = '--'\n", encoding="utf-8")
    (tmp_path / "rag" / "offline" / "task.py").write_text(
        "from langchain_core.messages import BaseMessage\nfrom rag import prompts\n"
        "def parse(text: str): return text.rpartition(prompts.SOURCES_END)\n",
        encoding="utf-8",
    )
    assert prompt_readers(tmp_path) == [
        "rag.offline.task: SOURCES_END",
        "rag.offline.task: langchain_core.messages",
    ]
