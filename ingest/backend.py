"""Which library implementation the settings ask for, chosen once at the edge (app and CLIs).

``library_class(settings)`` returns something with ``open``, ``open_reader`` and ``rebuild``
taking the local library's arguments: ``ingest.local.library.Library`` itself when
FOOTNOTE_DATABASE_URL is unset, else an opener bound to that database (which ignores data_dir).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ingest.team.store import DEFAULT_HNSW, HnswSettings


@dataclass(frozen=True)
class PgOpener:
    """Opens ``ingest.team.library.PgLibrary`` on one database, with the local library's signatures."""

    url: str = field(repr=False)  # holds the password
    hnsw: HnswSettings = DEFAULT_HNSW

    def open(self, data_dir: Any, embeddings: Any, **options: Any) -> Any:
        """A library for writing (tables created when absent)."""
        from ingest.team.library import PgLibrary

        return PgLibrary.open(self.url, embeddings, hnsw=self.hnsw, **options)

    def open_reader(self, data_dir: Any, embeddings: Any, **options: Any) -> Any:
        """A library for reading only."""
        from ingest.team.library import PgLibrary

        return PgLibrary.open_reader(self.url, embeddings, hnsw=self.hnsw, **options)

    def rebuild(self, data_dir: Any, embeddings: Any, **options: Any) -> Any:
        """Re-chunk and re-embed every document with these settings."""
        from ingest.team.library import PgLibrary

        return PgLibrary.rebuild(self.url, embeddings, hnsw=self.hnsw, **options)


def library_class(settings: Any) -> Any:
    """The local ``Library`` class, or a PgOpener when ``settings.database_url`` is set."""
    if settings.database_url is None:
        from ingest.local.library import Library

        return Library
    hnsw = HnswSettings(settings.pg_hnsw_m, settings.pg_hnsw_ef_construction, settings.pg_hnsw_ef_search)
    return PgOpener(settings.database_url.get_secret_value(), hnsw)
