"""Computed answers: a figure the question asks for, computed exactly from the table cells of its
evidence, each operand cited by its own cell (values, tables, cells, solve, line)."""
