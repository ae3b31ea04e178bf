from django.db import models


class LoginThrottle(models.Model):
    """Failed logins counted under one key (a username from one address, a username, an address).

    Kept in the database, not a per-process cache, so every web worker and machine sees the same count.
    """

    key = models.CharField(max_length=250, unique=True)
    failures = models.PositiveIntegerField(default=0)
    first_failure_at = models.DateTimeField()
    locked_until = models.DateTimeField(null=True, blank=True, db_index=True)

    def __str__(self) -> str:
        return f"{self.key}: {self.failures} failed"
