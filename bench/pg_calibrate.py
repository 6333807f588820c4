"""Team mode: are the synthetic vectors of the search benchmarks shaped like real embeddings?

Embeds two sets of real text with the app's default embeddings (all-MiniLM-L6-v2, int8), chunked
as the app chunks (1,000 characters, 150 overlap):

- Python documentation on this machine: the installed packages' METADATA descriptions, pydoc's
  topics and the standard library's docstrings of 200 characters or more (about 4,000 chunks;
  the count depends on what is installed). Third-party text, not shipped, read where it lies.
- PDFs: the shared corpus (squad-dev, pypdf's sample files; the ones pypdf cannot read are left
  out) and the generated filings of bench/filings.

For each set, and for bench/synthetic.py's two generators at the same number of vectors (the
library-like one with the set's own chunks per document), it reports neighbour statistics
(``synthetic.neighbour_stats``) and recall@10 of an HNSW graph (FAISS ``IndexHNSWFlat``, M 16,
efConstruction 64, the defaults of the PostgreSQL index; one thread) at small ef_search, where
sets of a few thousand vectors still differ, for held-out chunks as queries against exact search.
"""

from __future__ import annotations

import ast
import glob
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

EF_SEARCH = (10, 16, 24, 40)
HNSW_M, HNSW_EF_CONSTRUCTION, K = 16, 64, 10
CHUNK_SIZE, CHUNK_OVERLAP, MIN_DOCSTRING = 1000, 150, 200
SEED = 5


def python_docs(limit: int | None = None) -> list[str]:
    """One text per package description, pydoc topic, and standard-library module's docstrings."""
    import pydoc_data.topics

    site = sysconfig.get_paths()["purelib"]
    texts = [
        Path(p).read_text(errors="ignore").split("\n\n", 1)[-1]
        for p in sorted(glob.glob(f"{site}/*.dist-info/METADATA"))
    ]
    texts += list(pydoc_data.topics.topics.values())
    stdlib = sysconfig.get_paths()["stdlib"]
    for path in sorted(glob.glob(f"{stdlib}/**/*.py", recursive=True)):
        if "/test" in path or "site-packages" in path:
            continue
        try:
            tree = ast.parse(Path(path).read_text(errors="ignore"))
        except (SyntaxError, ValueError):
            continue
        kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
        docs = [ast.get_docstring(node) for node in ast.walk(tree) if isinstance(node, kinds)]
        body = "\n\n".join(d for d in docs if d and len(d) >= MIN_DOCSTRING)
        if body:
            texts.append(body)
    return texts[:limit]


def pdf_pages(limit: int | None = None) -> list[list[Any]]:
    """The pages of every readable corpus PDF and generated filing, one list per document."""
    from bench.common import CORPUS
    from bench.filings import generate
    from ingest.errors import IngestError
    from ingest.pdf.reader import read_pdf

    paths = sorted((CORPUS / "squad-dev" / "pdfs").glob("*.pdf")) + sorted(
        (CORPUS / "sample-files").rglob("*.pdf")
    )
    documents = []
    with tempfile.TemporaryDirectory(prefix="footnote-calibrate-") as folder:
        paths += list(generate(folder).pdfs)
        for path in paths[:limit]:
            try:
                documents.append(read_pdf(path.read_bytes(), path.name).pages)
            except IngestError:
                continue  # encrypted, unreadable or image-only: not text to embed
    return documents


def chunk_texts(documents: list[list[Any]]) -> list[str]:
    """The app's chunks of each document's pages."""
    from ingest.pdf.chunking import chunk_pages

    return [
        c.text
        for i, pages in enumerate(documents)
        for c in chunk_pages(f"d{i}", pages, CHUNK_SIZE, CHUNK_OVERLAP)
    ]


def hnsw_recall(vectors: np.ndarray, queries: int) -> list[float]:
    """recall@10 per ef_search of held-out vectors against the rest, HNSW vs exact."""
    import faiss

    faiss.omp_set_num_threads(1)
    order = np.random.default_rng(SEED).permutation(len(vectors))
    q, base = vectors[order[:queries]], np.ascontiguousarray(vectors[order[queries:]])
    truth = np.argsort(-(q @ base.T), axis=1)[:, :K]
    index = faiss.IndexHNSWFlat(base.shape[1], HNSW_M, faiss.METRIC_INNER_PRODUCT)
    index.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
    index.add(base)
    out = []
    for ef in EF_SEARCH:
        index.hnsw.efSearch = ef
        _, found = index.search(q, K)
        out.append(float(np.mean([len(set(f) & set(t)) / K for f, t in zip(found, truth, strict=True)])))
    return out


def compare(name: str, vectors: np.ndarray, documents: int, queries: int) -> list[dict[str, Any]]:
    """The real set's row and the two generators' rows at its size."""
    from bench import synthetic

    n = len(vectors)
    rng = np.random.default_rng(0)
    per_doc = max(1, round(n / documents))
    rows = []
    for label, v in (
        (f"real: {name}", vectors / np.linalg.norm(vectors, axis=1, keepdims=True)),
        (f"library-like, {per_doc} chunks per document", synthetic.library_like(rng, n, per_doc=per_doc)),
        ("isotropic (500 centres, noise 2.0)", synthetic.isotropic(rng, synthetic.isotropic_centres(rng), n)),
    ):
        rows.append(
            {
                "set": name,
                "label": label,
                "n": n,
                **synthetic.neighbour_stats(v),
                "recall": hnsw_recall(v, queries),
            }
        )
    return rows


def run(quick: bool = False) -> dict[str, Any]:
    """Embed both real sets and compare them with the generators."""
    from ingest.embeddings import LocalEmbeddings

    embeddings = LocalEmbeddings()
    docs = python_docs(40 if quick else None)
    pdfs = pdf_pages(6 if quick else None)
    sets = []
    for name, texts, documents, queries in (
        ("Python documentation", chunk_texts([[_page(t)] for t in docs]), len(docs), 30 if quick else 300),
        ("corpus PDFs and generated filings", chunk_texts(pdfs), len(pdfs), 15 if quick else 150),
    ):
        print(f"pg_calibrate: embedding {len(texts)} chunks of {name}", file=sys.stderr, flush=True)
        vectors = np.asarray(embeddings.embed_documents(texts), dtype=np.float32)
        sets.append({"name": name, "documents": documents, "chunks": len(texts), "queries": queries})
        sets[-1]["rows"] = compare(name, vectors, documents, queries)
    return {"sets": sets, "embedding": embeddings.name, "markdown": render(sets)}


def _page(text: str) -> Any:
    from ingest.types import Page

    return Page(0, "1", text)


def render(sets: list[dict[str, Any]]) -> str:
    """The README section body."""
    from bench.synthetic import LIBRARY_LIKE

    lines = [
        "| vectors | n | nearest / 10th cosine | random pair cosine | intrinsic dim. | recall@10 at ef_search "
        + " / ".join(map(str, EF_SEARCH))
        + " |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for s in sets:
        for r in s["rows"]:
            lines.append(
                f"| {r['label']} | {r['n']:,} | {r['nearest']:.3f} / {r['tenth']:.3f} | "
                f"{r['pair_mean']:.3f} ± {r['pair_std']:.3f} | {r['lid']:.1f} | "
                + " / ".join(f"{x:.3f}" for x in r["recall"])
                + " |"
            )
    params = ", ".join(f"{k} {v:g}" for k, v in LIBRARY_LIKE.items())
    return (
        "\n".join(lines)
        + "\n\nReal sets: "
        + "; ".join(f"{s['name']}, {s['chunks']:,} chunks of {s['documents']:,} documents" for s in sets)
        + ", embedded with the app's default model; bench/pg_calibrate.py says where the text comes from. "
        "Cosines are medians over the vectors (nearest and tenth-nearest other vector) and the mean ± "
        "standard deviation over all pairs; intrinsic dimensionality is the median Levina-Bickel estimate "
        "from the 20 nearest. Recall: FAISS HNSW (M 16, efConstruction 64, as the PostgreSQL index) over "
        "the set less its held-out queries ("
        + ", ".join(f"{s['queries']} for the {s['name']}" for s in sets)
        + "), against exact search. "
        f"The library-like generator's parameters ({params}) were fitted to the Python documentation's "
        "statistics; the PDFs are the second set it is checked on. It is what `pg_search` uses; the isotropic "
        "one is the worst case it used before."
    )
