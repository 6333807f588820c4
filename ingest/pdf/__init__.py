"""Reading a PDF: pages and labels (reader), chunks with page locators and their context, text-layer checks and OCR, page pictures with a passage highlighted, excerpts, and the pdfium lock."""
