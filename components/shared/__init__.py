"""What every page uses: the session state's one owner (state), the cached resources (resources),
who is asking (identity), a document's shown name (names) and safe markup (render)."""
