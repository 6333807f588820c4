"""Tables in extracted PDF text, read once: a line as a row or a column header (lines), and a
passage's rows with each cell's column, scale and statement (passages)."""
