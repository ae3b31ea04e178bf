"""Staff accounts: logging in (with failed attempts throttled), sessions that end when left idle, and a
password each user changes for themselves."""
