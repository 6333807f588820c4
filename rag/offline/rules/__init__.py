"""The answer check's rules (rag.offline.check): one table of them (table.RULES), each a function
of the read question and the candidate quote that says what it found wrong ("" for nothing)."""
