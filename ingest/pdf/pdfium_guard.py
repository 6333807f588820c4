"""One process-wide lock for every pdfium call.

PDFium is not thread-safe, not even across different documents: two Streamlit sessions (threads)
reading or rendering at once crashed the process (seen in the suite: a segfault in
get_textpage). Every use of pypdfium2 holds this lock and closes its objects before releasing it,
so no finalizer runs pdfium code later on another thread.
SEE: https://pypdfium2-team.github.io/pypdfium2/python_api.html (Incompatibility with Threading)
"""

import threading

PDFIUM_LOCK = threading.RLock()
