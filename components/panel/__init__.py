"""The source side panel, opened by a footnote in the chat and by a hit of the library search: the
cited passage, its page picture, the original PDF, and the cached wrappers that draw them."""
