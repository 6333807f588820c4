"""What a source passage holds that an answer can quote: table rows and their years, sentences and rows as units, and metrics computed from a table's rows."""
