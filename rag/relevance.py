"""When a cosine between a question and a text means "related": one threshold, one model's scale.

Shared by the retrieval gate (rag.answering.answer) and the offline answerer (rag.offline.extractive),
which must read the same cosine the same way. Free of both, so neither imports the other.
"""

from __future__ import annotations

# Measured on squad-dev (see bench/README.md): below it (and below rag.answering.answer's
# MIN_COVERAGE) retrieval found nothing related. A cosine's scale belongs to one embedding model:
# MIN_DENSE was measured only with the models in GATE_MODELS. With any other model the cosine is
# not read as "related" (the callers say what they do instead).
MIN_DENSE = 0.3
GATE_MODELS = ("all-MiniLM-L6-v2",)


def gate_measured_for(embedding_name: str) -> bool:
    """Whether MIN_DENSE was measured with this embedding model (by the name it reports)."""
    return any(model.lower() in embedding_name.lower() for model in GATE_MODELS)
