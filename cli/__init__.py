"""The command lines, above the core: ``python -m cli.ingest`` (add PDFs, the job verbs, repair,
recover, sections, migrate) and ``python -m cli.rag ask`` (an answer on a terminal or as JSON).

Only argument parsing and output live here; the settings become the core's values in wiring.py,
and the work is ingest/'s and rag/'s. Nothing but tests and bench imports this package.
"""
