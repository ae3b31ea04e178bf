import pytest


@pytest.mark.django_db(transaction=True)
def test_officer_logs_in_through_the_form_and_sees_their_role(live_server, page, make_staff_user):
    make_staff_user("animal_control_officer")

    page.goto(live_server.url + "/")
    assert page.get_by_role("heading", level=1).inner_text() == "dogcase"
    page.get_by_role("link", name="Log in").first.click()

    page.get_by_label("Username").fill("officer")
    page.get_by_label("Password").fill("correct horse battery staple")
    page.get_by_role("button", name="Log in").click()

    page.wait_for_url(live_server.url + "/")
    assert page.locator("[data-role=animal_control_officer]").inner_text() == "Animal control officer"
    assert page.get_by_role("button", name="Log out officer").is_visible()
