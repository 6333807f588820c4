"""Where conversations and verdicts live: SQLite and PostgreSQL stores, answers as plain data, users, the backend choice, and the migration of a local library into PostgreSQL."""
