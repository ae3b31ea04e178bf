"""The Content Security Policy allows no inline code, and no page of ours needs any: a real browser loads the
main pages, including the live classification and the admin, without a single policy violation."""

import pytest

from tests.browser.test_case_flow_browser import log_in
from tests.staff.conftest import declare, record_bite


def test_the_main_pages_run_under_the_policy_without_a_violation(live_server, page, make_staff_user):
    officer = make_staff_user("animal_control_officer", cities=["battle-lake-mn"])
    case = record_bite(officer)
    declare(case, officer)
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)

    log_in(page, live_server, officer.username)
    for path in (
        "/",
        f"/cases/{case.number}",
        f"/cases/{case.number}/act/serve_notice",
        "/search?q=a",
        "/law/",
    ):
        response = page.goto(live_server.url + path)
        assert response.status == 200, path
        policy = response.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    page.goto(live_server.url + "/incidents/new")
    page.get_by_label("Public property").check()  # an htmx request: the live classification panel updates
    page.wait_for_load_state("networkidle")
    assert violations == []


@pytest.mark.parametrize("path", ["/admin/login/", "/accounts/login/"])
def test_the_login_pages_run_under_the_policy(live_server, page, path):
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    response = page.goto(live_server.url + path)
    assert response.status == 200
    assert violations == []
