import os

import pytest
from django.core.management import call_command

from dogcase.cases.models import Case


@pytest.fixture
def demo(settings, db):
    """The demo data of both cities, as `make run` seeds it."""
    settings.DEBUG = True  # the development demo password
    with open(os.devnull, "w") as quiet:
        call_command("seed_demo", stdout=quiet)
    settings.DEBUG = False
    assert Case.objects.filter(jurisdiction="battle-lake-mn").count() >= 10
    assert Case.objects.filter(jurisdiction="tracy-mn").count() >= 5


@pytest.fixture
def demo_clerk(demo):
    """A test client logged in as the demo's city clerk (both cities)."""
    from django.contrib.auth.models import User
    from django.test import Client

    client = Client()
    client.force_login(User.objects.get(username="clerk"))
    return client
