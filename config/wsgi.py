import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

# the law packs read and the process's long-lived objects frozen before the first request (dogcase/ops/warm.py)
from dogcase.ops.warm import ready_for_requests  # noqa: E402 - after Django is set up

ready_for_requests()
