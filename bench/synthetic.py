"""Synthetic 384-dimensional unit vectors for the team-mode search benchmarks, and the numbers
that say how far they are from real embeddings.

Two generators:

- ``library_like``: a library's shape. Documents of ``per_doc`` chunks, grouped in topics of
  ``DOCS_PER_TOPIC`` documents; a chunk is a direction every text shares, plus its topic's, plus
  its document's, plus a part inside a low-rank subspace of its own document, plus isotropic noise
  whose size varies from document to document (some documents are tight, some diffuse). The
  parameters (``LIBRARY_LIKE``) were fitted to all-MiniLM-L6-v2 vectors (the app's default
  embeddings) of real text: 4,183 chunks of Python package documentation (the venv's METADATA
  files, pydoc's topics, the standard library's docstrings), matching their median cosine to the
  nearest and tenth-nearest neighbour, the mean cosine of two random chunks and the local intrinsic
  dimensionality, then checked against a second set, the 823 chunks of the shared corpus's PDFs
  (squad-dev, pypdf's sample files) and the generated filings, by HNSW recall at small ef_search.
  ``python -m bench pg_calibrate`` measures both sets again beside the generators.
- ``isotropic``: 500 random centres, each vector a centre plus ``ISOTROPIC_NOISE`` times Gaussian
  noise per coordinate. Far harder than real embeddings (two vectors of one centre have cosine about
  0.2, the nearest neighbour of a real chunk about 0.7): kept as the worst case, and because the
  HNSW settings' defaults were first measured on it.
"""

from __future__ import annotations

import numpy as np

DIM = 384
CENTRES, ISOTROPIC_NOISE = 500, 2.0
DOCS_PER_TOPIC = 20
# Fitted as the module docstring says (common, topic, doc, chunk and noise are each part's expected
# length before the vector is normalised; spread is the standard deviation of the log of the
# per-document noise factor; rank the dimension of a document's own subspace).
LIBRARY_LIKE = {
    "common": 0.7,
    "topic": 1.2,
    "doc": 0.95,
    "chunk": 0.75,
    "rank": 32,
    "noise": 0.8,
    "spread": 1.0,
}


def isotropic(
    rng: np.random.Generator, centres: np.ndarray, n: int, noise: float = ISOTROPIC_NOISE
) -> np.ndarray:
    """n unit vectors, each a random one of the centres plus Gaussian noise."""
    x = centres[rng.integers(0, len(centres), n)] + noise * rng.normal(size=(n, DIM)).astype(np.float32)
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def isotropic_centres(rng: np.random.Generator) -> np.ndarray:
    """The centres isotropic() draws around."""
    return rng.normal(size=(CENTRES, DIM)).astype(np.float32)


def library_like(rng: np.random.Generator, n: int, per_doc: int = 50, **overrides: float) -> np.ndarray:
    """n unit vectors shaped like a library's chunks (module docstring), rows in random order.

    overrides replace entries of LIBRARY_LIKE (for the calibration's comparisons)."""
    p = LIBRARY_LIKE | overrides
    rank = int(p["rank"])
    docs = -(-n // per_doc)
    common = rng.normal(size=DIM)
    common *= p["common"] / np.linalg.norm(common)
    topics = rng.normal(size=(-(-docs // DOCS_PER_TOPIC), DIM)) * (p["topic"] / np.sqrt(DIM))
    out = np.empty((n, DIM), dtype=np.float32)
    for d in range(docs):
        lo, hi = d * per_doc, min(n, (d + 1) * per_doc)
        centre = common + topics[d // DOCS_PER_TOPIC] + rng.normal(size=DIM) * (p["doc"] / np.sqrt(DIM))
        basis = rng.normal(size=(rank, DIM)) / np.sqrt(DIM)  # about orthonormal rows: length 1 each
        own = (rng.normal(size=(hi - lo, rank)) * (p["chunk"] / np.sqrt(rank))) @ basis
        spread = np.exp(p["spread"] * rng.normal())
        out[lo:hi] = centre + own + rng.normal(size=(hi - lo, DIM)) * (spread * p["noise"] / np.sqrt(DIM))
    out = out[rng.permutation(n)]
    return out / np.linalg.norm(out, axis=1, keepdims=True)


def neighbour_stats(vectors: np.ndarray, k: int = 20) -> dict[str, float]:
    """Median cosine to the nearest and the tenth-nearest other vector, mean and standard deviation
    of the cosine between two different vectors, and the median local intrinsic dimensionality
    (Levina and Bickel's maximum-likelihood estimate from the k nearest distances). All pairs in
    memory: for a few thousand vectors."""
    v = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    sims = v @ v.T
    np.fill_diagonal(sims, -np.inf)
    near = -np.sort(-sims, axis=1)[:, :k]
    dist = np.sqrt(np.maximum(2 - 2 * near, 1e-12))
    lid = -1 / np.mean(np.log(dist[:, :-1] / dist[:, -1:]), axis=1)
    pairs = sims[np.isfinite(sims)]
    return {
        "nearest": float(np.median(near[:, 0])),
        "tenth": float(np.median(near[:, 9])),
        "pair_mean": float(pairs.mean()),
        "pair_std": float(pairs.std()),
        "lid": float(np.median(lid)),
    }
