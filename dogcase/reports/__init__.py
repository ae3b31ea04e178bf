"""A city's figures over a period: the charts (SVG, drawn on the server), their tables and CSV, and the annual
report a council asks for (docs/data.md)."""
