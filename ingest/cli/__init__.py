"""The ingest command line's parts: its arguments, what it does and shows per file, and its job
verbs (``--queue``, ``worker``, ``jobs``, ``cancel``). ``ingest/__main__.py`` wires them to the settings."""
