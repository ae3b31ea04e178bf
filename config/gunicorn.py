"""gunicorn's settings for dogcase (`make serve`, the systemd unit in docs/deploy.md). Environment:
DOGCASE_BIND (default 127.0.0.1:8000: the reverse proxy in front serves TLS), WEB_CONCURRENCY (worker
processes, default 2 x cores + 1), FORWARDED_ALLOW_IPS (the proxy's address, default 127.0.0.1)."""

import multiprocessing
import os

wsgi_app = "config.wsgi:application"
bind = os.getenv("DOGCASE_BIND", "127.0.0.1:8000")
# Sync workers: every view is synchronous Django; one request per process, no thread-safety questions.
workers = int(os.getenv("WEB_CONCURRENCY", str(2 * multiprocessing.cpu_count() + 1)))
worker_class = "sync"
timeout = 60
graceful_timeout = 30
# Recycle workers now and then, at different moments, so a slow leak never grows.
max_requests = 2000
max_requests_jitter = 200
forwarded_allow_ips = os.getenv("FORWARDED_ALLOW_IPS", "127.0.0.1")
# dogcase logs every request itself (dogcase.ops.logs, with its id, user and duration); gunicorn's own lines
# go to stdout as JSON too.
accesslog = None
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "dogcase.ops.logs.JsonFormatter"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "stream": "ext://sys.stdout", "formatter": "json"}
    },
    "loggers": {"gunicorn.error": {"handlers": ["console"], "level": "INFO", "propagate": False}},
}
# No runtime control socket (gunicornc): systemd starts, reloads and stops the server (docs/deploy.md).
control_socket_disable = True
