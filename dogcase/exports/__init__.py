"""A city's records taken out: every list as CSV and XLSX, streamed, and the whole city as one archive
(docs/data.md)."""
