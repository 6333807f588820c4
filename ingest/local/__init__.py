"""The local library: SQLite rows, the FAISS vectors and the stored PDFs in one folder, its ingestion jobs, schema migrations, recovery, re-indexing and consistency checks."""
