"""Running dogcase in production: the health check, request logs, backup and restore (docs/deploy.md)."""
