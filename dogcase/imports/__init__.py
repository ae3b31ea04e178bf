"""A city's records brought in from a spreadsheet or a shelter system's export (CSV, XLSX): people, dogs,
licences, incidents and open cases (docs/data.md)."""
