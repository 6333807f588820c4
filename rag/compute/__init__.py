"""Computed answers: a figure the question asks for, computed exactly from the table cells of its
evidence, each operand cited by its own cell: printed numbers (values), a passage's table and
its column headers (tables, headers), an operand's cell (cells), more evidence for missing
operands (gather), the arithmetic (solve) and the answer's line and cited cells (present)."""
