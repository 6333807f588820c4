"""Retrieval at scale: query latency and memory of the app's FAISS index beside numpy brute force.

Each library size runs in its own child process, so its memory is measured alone. The vectors are
synthetic: 384-dimensional float32, L2-normalised, a library of n/50 "documents" of 50 chunks,
each chunk drawn around its document's random direction (chunks of one document are similar, as
real embeddings are, not uniform noise); each query is drawn around a random document's direction.
Exact search cost does not depend on the data; the approximate index's recall does.
"""

from __future__ import annotations

from typing import Any

from bench.common import median, percentile, rss_mb, run_child

DIM = 384
K = 10
SIZES = (10_000, 100_000, 1_000_000)
QUICK_SIZES = (2_000, 10_000)
ROUNDS = 3
CHUNKS_PER_DOC = 50
NOISE = 0.05  # per dimension; |noise| ~ 0.98, so two chunks of one document have cosine ~0.5
IVF_AT = 1_000_000  # the approximate index is measured at this size (and at the largest quick one)


def make_vectors(n: int, seed: int, topics: int, topic_seed: int = 0) -> Any:
    """n unit vectors, each around one of `topics` random directions (cosine about 0.5 between
    two vectors of one topic); the same topic_seed gives the same directions."""
    import numpy as np

    centres = np.random.default_rng(topic_seed).standard_normal((topics, DIM), dtype=np.float32)
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    rng = np.random.default_rng(seed)
    out = np.empty((n, DIM), dtype=np.float32)
    for lo in range(0, n, 100_000):  # in blocks, to bound the temporaries
        hi = min(lo + 100_000, n)
        block = rng.standard_normal((hi - lo, DIM), dtype=np.float32) * np.float32(NOISE)
        block += centres[rng.integers(0, topics, hi - lo)]
        block /= np.linalg.norm(block, axis=1, keepdims=True)
        out[lo:hi] = block
    return out


def build_flat_index(vectors: Any) -> Any:
    """The app's own index (ingest.local.vectors.new_index: exact inner product, id-mapped for deletes)."""
    import numpy as np

    from ingest.local.vectors import add_vectors, new_index

    index = new_index(DIM)
    add_vectors(index, vectors, np.arange(len(vectors), dtype=np.int64).tolist())
    return index


def search_numpy(matrix: Any, query: Any, k: int = K) -> Any:
    """The brute-force baseline: one matrix-vector product, then a partial sort."""
    import numpy as np

    scores = matrix @ query
    top = np.argpartition(-scores, k)[:k]
    return top[np.argsort(-scores[top])]


def _latencies(search: Any, queries: Any) -> list[float]:
    import time

    out = []
    for q in queries:
        start = time.perf_counter()
        search(q)
        out.append(time.perf_counter() - start)
    return out


def _summarise(rounds: list[list[float]]) -> dict[str, float]:
    return {
        "p50_ms": round(median([percentile(r, 50) for r in rounds]) * 1000, 3),
        "p95_ms": round(median([percentile(r, 95) for r in rounds]) * 1000, 3),
    }


def _recall(found: Any, exact: Any) -> float:
    hits = sum(len(set(f.tolist()) & set(e.tolist())) for f, e in zip(found, exact, strict=True))
    return hits / (len(exact) * exact.shape[1])


def measure_ivf(vectors: Any, queries: Any, exact: Any, rounds: int) -> dict[str, Any]:
    """An approximate index (IVF, flat lists) with its recall@k against the exact result."""
    import time

    import faiss

    n = len(vectors)
    nlist = max(16, int(4 * n**0.5) // 4)  # about sqrt(n) lists
    train = vectors[:: max(1, n // (40 * nlist))][: 40 * nlist]
    before = rss_mb()
    start = time.perf_counter()
    index = faiss.IndexIVFFlat(faiss.IndexFlatIP(DIM), DIM, nlist, faiss.METRIC_INNER_PRODUCT)
    index.cp.niter = 10
    index.train(train)
    index.add(vectors)
    build_s = time.perf_counter() - start
    memory = rss_mb() - before
    rows = []
    for nprobe in (8, 32, 128):
        index.nprobe = nprobe
        runs = [_latencies(lambda q: index.search(q[None, :], K), queries) for _ in range(rounds)]
        found = index.search(queries, K)[1]
        rows.append({"nprobe": nprobe, **_summarise(runs), "recall_at_k": round(_recall(found, exact), 4)})
    return {"nlist": nlist, "build_s": round(build_s, 1), "memory_mb": round(memory, 1), "probes": rows}


def _time_rounds(index: Any, matrix: Any, queries: Any, rounds: int) -> tuple[list, list, list]:
    """Per round: FAISS with its default threads, FAISS with one thread, then numpy."""
    import faiss

    threads = faiss.omp_get_max_threads()
    faiss_runs, single_runs, numpy_runs = [], [], []
    _latencies(lambda q: index.search(q[None, :], K), queries[:5])  # warm up both
    _latencies(lambda q: search_numpy(matrix, q), queries[:5])
    for _ in range(rounds):
        faiss_runs.append(_latencies(lambda q: index.search(q[None, :], K), queries))
        faiss.omp_set_num_threads(1)
        single_runs.append(_latencies(lambda q: index.search(q[None, :], K), queries))
        faiss.omp_set_num_threads(threads)
        numpy_runs.append(_latencies(lambda q: search_numpy(matrix, q), queries))
    return faiss_runs, single_runs, numpy_runs


def measure_size(n: int, queries: int, rounds: int = ROUNDS, ivf: bool = False) -> dict[str, Any]:
    """Child-process body: build both at size n, time single queries round by round, interleaved."""
    import time

    import faiss
    import numpy  # noqa: F401  (imported before the first memory reading)

    base = rss_mb()
    topics = max(1, n // CHUNKS_PER_DOC)
    matrix = make_vectors(n, seed=n, topics=topics)
    numpy_mb = rss_mb() - base
    query_vecs = make_vectors(queries, seed=n + 1, topics=topics)
    before = rss_mb()
    start = time.perf_counter()
    index = build_flat_index(matrix)
    build_s = time.perf_counter() - start
    faiss_mb = rss_mb() - before
    threads = faiss.omp_get_max_threads()
    faiss_runs, single_runs, numpy_runs = _time_rounds(index, matrix, query_vecs, rounds)
    exact = index.search(query_vecs, K)[1]
    agree = _recall([search_numpy(matrix, q) for q in query_vecs], exact)
    result: dict[str, Any] = {
        "chunks": n,
        "queries": queries,
        "rounds": rounds,
        "faiss_threads": threads,
        "faiss_flat": {
            **_summarise(faiss_runs),
            "memory_mb": round(faiss_mb, 1),
            "build_s": round(build_s, 2),
        },
        "faiss_flat_1_thread": _summarise(single_runs),
        "numpy": {**_summarise(numpy_runs), "memory_mb": round(numpy_mb, 1)},
        "numpy_agrees_with_faiss": round(agree, 4),
        "raw_vectors_mb": round(matrix.nbytes / 2**20, 1),
    }
    if ivf:
        del index
        result["ivf"] = measure_ivf(matrix, query_vecs, exact, rounds)
    return result


def run(quick: bool = False) -> dict[str, Any]:
    """Every size in its own child process; the result dict the README is written from."""
    sizes = QUICK_SIZES if quick else SIZES
    rows = []
    for n in sizes:
        queries = 30 if quick else max(20, min(200, 2_000_000 // n))
        ivf = n == (sizes[-1] if quick else IVF_AT)
        kwargs = {"n": n, "queries": queries, "ivf": ivf}
        rows.append(run_child("bench.retrieval:measure_size", kwargs, exact_rss=True))
    return {"rows": rows, "k": K, "dim": DIM, "markdown": render(rows)}


def render(rows: list[dict[str, Any]]) -> str:
    """The README section body for these rows."""
    lines = [
        "| chunks | FAISS flat p50 / p95 | FAISS flat, 1 thread | numpy p50 / p95 | "
        "FAISS / numpy time (p50) | FAISS 1 thread / numpy | FAISS memory | numpy memory | "
        "queries x rounds |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        f, one, npy = r["faiss_flat"], r["faiss_flat_1_thread"], r["numpy"]
        lines.append(
            f"| {r['chunks']:,} | {f['p50_ms']:.2f} / {f['p95_ms']:.2f} ms | {one['p50_ms']:.2f} / "
            f"{one['p95_ms']:.2f} ms | {npy['p50_ms']:.2f} / {npy['p95_ms']:.2f} ms | "
            f"{f['p50_ms'] / npy['p50_ms']:.2f}x | {one['p50_ms'] / npy['p50_ms']:.2f}x | "
            f"{f['memory_mb']:,.0f} MiB | "
            f"{npy['memory_mb']:,.0f} MiB | {r['queries']} x {r['rounds']} |"
        )
    notes = [
        "",
        f"Single queries (k={K}, {DIM} dims), as the app searches. FAISS runs with its default "
        f"{rows[-1]['faiss_threads']} OpenMP threads, and with 1 thread (`faiss.omp_set_num_threads(1)`), "
        "in the same rounds as numpy. Latency: median over rounds of each "
        "round's p50 / p95. Memory: resident-size growth when the structure is built (the raw "
        "vectors alone are 1,465 MiB at 1M). The FAISS index is the app's own, "
        "`ingest.local.vectors.new_index` (`IndexIDMap2(IndexFlatIP)`); numpy is `matrix @ query` + "
        "`argpartition`. "
        "Peak resident memory of each child: "
        + ", ".join(f"{r['chunks']:,}: {r['child_peak_rss_mb']:,.0f} MiB" for r in rows)
        + ". numpy and FAISS returned the same top-k: "
        + ", ".join(f"{r['numpy_agrees_with_faiss']:.1%}" for r in rows)
        + " overlap.",
    ]
    for r in rows:
        if "ivf" in r:
            notes.append(_render_ivf(r))
    return "\n".join(lines + notes)


def _render_ivf(row: dict[str, Any]) -> str:
    ivf = row["ivf"]
    probes = "; ".join(
        f"nprobe {p['nprobe']}: p50 {p['p50_ms']:.2f} ms, p95 {p['p95_ms']:.2f} ms, recall@{K} "
        f"{p['recall_at_k']:.3f}"
        for p in ivf["probes"]
    )
    return (
        f"\nApproximate index at {row['chunks']:,} chunks, `IndexIVFFlat` with {ivf['nlist']} lists "
        f"(build {ivf['build_s']} s, {ivf['memory_mb']:,.0f} MiB): {probes}. Recall is against the "
        "exact FAISS result on the same synthetic clustered vectors; real embeddings may differ."
    )
