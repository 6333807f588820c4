"""The chat page: the saved turns and the streamed answer, each answer's footnote buttons, the side
panel's fragment with its click relay, and the sidebar's model picker."""
