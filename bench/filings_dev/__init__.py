"""Analyst questions written by the team on the 24 real filings of ../shared/corpus/filings-dev (see README.md)."""
