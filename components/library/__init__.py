"""The library page: the documents and samples, the ingestion jobs (also the chat sidebar's
"documents being added" line) and the library search."""
