"""The team library in PostgreSQL + pgvector: connections, schema and vectors, reads, recovery and its ingestion jobs."""
