"""The audit page: the review of one citation at a time, and the metrics and export tabs."""
