"""Citation audit, the pure part: one record per citation, its metrics, exports and text helpers."""
