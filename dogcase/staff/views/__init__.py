"""The staff web app: server-rendered pages, htmx for the partial updates. Views parse input, check access,
call the act, and map its errors to a message or an HTTP status — nothing more (STYLE.md)."""
