import pytest
from django.contrib.auth.models import Group, User
from django.core.management import CommandError, call_command

from dogcase.cases.roles import ROLES


@pytest.mark.django_db
def test_anonymous_home_explains_dogcase_and_links_to_login_and_law(client):
    response = client.get("/")

    assert response.status_code == 200
    html = response.content.decode()
    assert 'href="/accounts/login/"' in html
    assert 'href="/law/"' in html
    assert "dangerous-dog law" in html
    # an owner with a letter finds the portal from the home page (issue 20, item 11)
    assert 'href="/owner/"' in html and "Open your case" in html


def test_logged_in_officer_sees_their_name_and_role(officer_client):
    response = officer_client.get("/")

    html = response.content.decode()
    assert "officer" in html
    assert 'data-role="animal_control_officer">Animal control officer<' in html
    assert 'href="/accounts/login/"' not in html


def test_user_without_a_role_is_told_so(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("nobody"))

    assert "No role assigned" in client.get("/").content.decode()


@pytest.mark.parametrize("fixture_name", ["clerk_client", "hearing_officer_client", "auditor_client"])
def test_each_role_client_is_logged_in_with_its_role(request, fixture_name):
    response = request.getfixturevalue(fixture_name).get("/")

    assert response.context["user"].is_authenticated
    assert len(response.context["roles"]) == 1


@pytest.mark.django_db
def test_login_form_logs_in_and_redirects_home(client, make_staff_user):
    make_staff_user("city_clerk")

    response = client.post(
        "/accounts/login/", {"username": "clerk", "password": "correct horse battery staple"}, follow=True
    )

    assert response.redirect_chain[-1][0] == "/"
    assert "City clerk" in response.content.decode()


@pytest.mark.django_db
def test_logout_is_a_post_and_returns_home(officer_client):
    response = officer_client.post("/accounts/logout/")

    assert response.status_code == 302
    assert response.url == "/"
    assert 'href="/accounts/login/"' in officer_client.get("/").content.decode()


@pytest.mark.django_db
def test_seed_demo_is_idempotent_and_creates_one_user_per_role(settings, monkeypatch, capsys):
    settings.DEBUG = True
    monkeypatch.delenv("DOGCASE_DEMO_PASSWORD", raising=False)

    call_command("seed_demo")
    call_command("seed_demo")

    assert User.objects.count() == 7
    assert Group.objects.count() == 7
    for role in ROLES:
        user = User.objects.get(username=role.demo_username)
        assert list(user.groups.values_list("name", flat=True)) == [role.group]
    admin = User.objects.get(username="admin")
    assert admin.is_superuser and admin.is_staff
    assert not User.objects.get(username="officer").is_staff
    output = capsys.readouterr().out
    assert "officer" in output and "Hearing officer" in output


@pytest.mark.django_db
def test_seed_demo_uses_the_password_from_the_environment(settings, monkeypatch):
    settings.DEBUG = False
    monkeypatch.setenv("DOGCASE_DEMO_PASSWORD", "from-the-env-1234")

    call_command("seed_demo", stdout=None)

    assert User.objects.get(username="auditor").check_password("from-the-env-1234")


@pytest.mark.django_db
def test_seed_demo_refuses_without_a_password_when_debug_is_off(settings, monkeypatch):
    settings.DEBUG = False
    monkeypatch.delenv("DOGCASE_DEMO_PASSWORD", raising=False)

    with pytest.raises(CommandError, match="DOGCASE_DEMO_PASSWORD"):
        call_command("seed_demo")

    assert not User.objects.exists()
