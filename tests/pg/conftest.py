"""Team-mode tests: the server fixtures live in tests/pg/fixtures.py (registered suite-wide), and
the pools each test opened are closed after it by tests/conftest.py (for the whole suite)."""
