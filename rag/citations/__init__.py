"""The one citation grammar (short-id markers) and its parser (one shot and streaming), the citations against an answer's evidence table, and the evidence table's short ids."""
