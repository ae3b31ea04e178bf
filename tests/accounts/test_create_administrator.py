"""The first administrator of a deployment is made on the server by `manage.py create_administrator`: with
the administrator role and the cities named, it signs in and manages the Users page at once; an account made
with createsuperuser is refused that page until the command gives it the role (`--existing`). Bad input names
the field and creates nothing."""

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from dogcase.accounts.manage import city_ids
from dogcase.cases.models import CityAccess, Event

pytestmark = pytest.mark.django_db

PASSWORD = "a long enough first passphrase 2026"


def run(monkeypatch, *args, stdin: str = PASSWORD + "\n") -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    out = io.StringIO()
    call_command("create_administrator", *args, stdout=out)
    return out.getvalue()


def test_the_first_administrator_signs_in_and_manages_the_users_of_their_city(monkeypatch):
    said = run(
        monkeypatch, "ada", "--city", "battle-lake-mn", "--email", "ada@example.org", "--password-stdin"
    )
    assert "ada is the administrator of battle-lake-mn" in said
    user = User.objects.get(username="ada")
    assert set(user.groups.values_list("name", flat=True)) == {"administrator"}
    assert set(CityAccess.objects.filter(user=user).values_list("jurisdiction", flat=True)) == {
        "battle-lake-mn"
    }
    assert not user.is_superuser
    client = Client()
    assert client.login(username="ada", password=PASSWORD)
    page = client.get("/accounts/users/")
    assert page.status_code == 200
    event = Event.objects.get(jurisdiction="battle-lake-mn", act="account_created")
    assert event.actor_name == "the server's command line"
    assert "ada" in event.summary and "administrator" in event.summary
    assert not Event.objects.filter(jurisdiction="tracy-mn", act="account_created").exists()


def test_a_superuser_made_with_createsuperuser_gets_the_users_page_once_given_the_role(monkeypatch):
    User.objects.create_superuser("root", "root@example.org", PASSWORD)
    client = Client()
    client.login(username="root", password=PASSWORD)
    assert client.get("/accounts/users/").status_code == 403
    run(monkeypatch, "root", "--existing", "--all-cities", stdin="")
    assert client.get("/accounts/users/").status_code == 200
    cities = set(CityAccess.objects.filter(user__username="root").values_list("jurisdiction", flat=True))
    assert cities == set(city_ids()) >= {"battle-lake-mn", "tracy-mn"}  # every city served (and any added)
    assert Event.objects.filter(act="access_changed", summary__contains="root").count() == len(city_ids())


@pytest.mark.parametrize(
    ("args", "stdin", "field", "words"),
    [
        (
            ("bo", "--city", "springfield-mn", "--password-stdin"),
            PASSWORD,
            "cities",
            "this deployment serves: battle-lake-mn, ",
        ),
        (("bo", "--password-stdin"), PASSWORD, "cities", "Name at least one city"),
        (("bo", "--city", "tracy-mn", "--password-stdin"), "short", "password", "too short"),
        (("bo", "--city", "tracy-mn", "--password-stdin"), "", "password", "empty"),
        (("bo", "--city", "tracy-mn", "--existing"), "", "username", "There is no account bo"),
        (("bad name!", "--city", "tracy-mn", "--password-stdin"), PASSWORD, "username", "valid username"),
    ],
)
def test_bad_input_names_the_field_and_creates_nothing(monkeypatch, args, stdin, field, words):
    with pytest.raises(CommandError) as refused:
        run(monkeypatch, *args, stdin=stdin + "\n" if stdin else "")
    assert str(refused.value).startswith(f"{field}: ")
    assert words in str(refused.value)
    assert not User.objects.exists()
    assert not Event.objects.filter(act__in=("account_created", "access_changed")).exists()


def test_a_taken_username_is_not_silently_promoted(monkeypatch):
    User.objects.create_user("cy", password=PASSWORD)
    with pytest.raises(CommandError, match="username: The username cy is taken"):
        run(monkeypatch, "cy", "--city", "tracy-mn", "--password-stdin")
    assert not User.objects.get(username="cy").groups.exists()


def test_without_a_terminal_the_password_must_come_on_stdin(monkeypatch):
    with pytest.raises(CommandError, match="password: no terminal to ask on; use --password-stdin"):
        run(monkeypatch, "dee", "--city", "tracy-mn")
    assert not User.objects.exists()
