"""Each role's dashboard lists every act the law gives that role on the cases of its cities, over the demo data:
for every open case and every role, the steps the law engine allows that role to take now appear on the role's
dashboard (in one of its lists, read page by page) — the timed ones through the deadline they meet, the others
(the City Council's confirmation after a recommendation, a notice to serve after a declaration) as acts
waiting with no time set — and nothing another role takes appears as this role's. After the README's
walk-through up to the hearing officer's recommendation, the council clerk's dashboard lists the
recommendation waiting for the Council."""

from __future__ import annotations

import os
from collections import defaultdict

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone

from dogcase.cases import acts
from dogcase.cases.models import Case, Obligation
from dogcase.cases.roles import ROLES
from dogcase.law import Actor, library

pytestmark = pytest.mark.django_db

ACTING_ROLES = [r for r in ROLES if r.group not in ("auditor", "administrator")]
OVERSEERS = [r for r in ROLES if r.group in ("auditor", "administrator")]


@pytest.fixture
def demo(settings):
    settings.DEBUG = True  # the development demo password
    with open(os.devnull, "w") as quiet:
        call_command("seed_demo", stdout=quiet)
    settings.DEBUG = False
    assert Case.objects.filter(status=Case.Status.OPEN).count() >= 10


def dashboard_rows(client, username: str) -> list[dict]:
    """Every row of every list of the user's dashboard, each list read in full (its own pages)."""
    client.force_login(User.objects.get(username=username))
    response = client.get("/")
    assert response.status_code == 200
    out = []
    for section in response.context["sections"]:
        rows = [dict(r, list=section["id"]) for r in section["rows"]]
        if section["count"] > len(rows):
            rows, page = [], 1
            while True:
                listed = client.get("/", {"list": section["id"], "page": page}).context["list"]
                rows += [dict(r, list=section["id"]) for r in listed["rows"]]
                if listed["page"] >= listed["pages"]:
                    break
                page += 1
            assert len(rows) == section["count"], section["id"]
        out += rows
    return out


def follows_an_act(step) -> bool:
    """The step's requirements name an act already taken on the case (a `done:`, or one inside an `all:`)."""

    def named(conditions):
        return any(c.test == "done" or (c.test == "all" and named(c.parts)) for c in conditions)

    return named(step.requires)


def acts_to_take(role: str) -> dict[str, set[str]]:
    """case number -> the steps the law engine allows `role` to take now on that case, that a dashboard lists:
    every allowed step, but those recorded when they happen (a step that follows no act of the case and meets
    no deadline open now: a transfer, a death, a conviction), a step the owner files (listed through the owner's
    deadline when one is open), and a further service of a notice (recorded on the document)."""
    now = timezone.now()
    out: dict[str, set[str]] = defaultdict(set)
    for case in Case.objects.filter(status=Case.Status.OPEN).order_by("number"):
        j = library().get(case.jurisdiction)
        state = acts.case_state(case)
        open_deadlines = {o.deadline_id for o in j.obligations(state, now) if o.status in ("open", "overdue")}
        actor = Actor(id=f"role:{role}", roles=j.pack_roles_for({role}))
        for verdict in j.available_steps(state, actor, now):
            step = verdict.step
            if not verdict.allowed:
                continue
            timed_now = bool(set(step.satisfies) & open_deadlines)
            if not timed_now and (step.filed_by_owner or not follows_an_act(step) and not step.opens_case):
                continue
            if step.service_of and step.repeatable:
                continue
            if step.repeatable and not timed_now:
                taken = [t.at for t in state.taken if t.step == step.id]
                before = [t.at for t in state.taken if t.step in _done_of(step)]
                if taken and (not before or max(taken) >= max(before)):
                    continue
            out[case.number].add(step.id)
    return out


def _done_of(step) -> set[str]:
    def named(conditions):
        found = set()
        for c in conditions:
            if c.test == "done":
                found.add(c.arg)
            elif c.test == "all":
                found |= named(c.parts)
        return found

    return named(step.requires)


def shown_for(rows, case: Case, step) -> bool:
    """Whether the dashboard's rows list this step of this case: its own row, a row of a deadline it meets,
    or (the step that decides an incident) the case among the incidents to decide."""
    for r in rows:
        if r["case_number"] != case.number:
            continue
        if r["undecided"] and step.opens_case:
            return True
        if r["deadline_id"] == f"act:{step.id}" or r["deadline_id"] in step.satisfies:
            return True
    return False


def test_each_roles_dashboard_lists_every_act_the_law_gives_it_and_none_of_anothers(demo, client):
    now = timezone.now()
    cases = {c.number: c for c in Case.objects.filter(status=Case.Status.OPEN)}
    listed_acts = 0
    for role in ACTING_ROLES:
        rows = dashboard_rows(client, role.demo_username)
        expected = acts_to_take(role.group)
        assert expected, role.group  # every acting role has something to do in the demo
        for number, steps in expected.items():
            case = cases[number]
            j = library().get(case.jurisdiction)
            for sid in steps:
                step = j.case_step(sid, acts.case_state(case), now)
                assert shown_for(rows, case, step), (role.group, number, sid)
                listed_acts += 1
        # nothing on the dashboard is another role's: an act waiting is one the engine lets this role take,
        # a deadline names this role among those who meet it (or is a seizure the role's list is for)
        for r in rows:
            if r["undecided"]:
                continue
            ob = Obligation.objects.get(case__number=r["case_number"], deadline_id=r["deadline_id"])
            if r["deadline_id"].startswith("act:"):
                assert r["deadline_id"][4:] in expected.get(r["case_number"], ()), (role.group, r)
                assert f",{role.group}," in ob.staff_roles
            elif r["list"] not in ("seizures", "council"):
                assert f",{role.group}," in ob.staff_roles, (role.group, r)
    assert listed_acts >= 30


def test_the_overseers_dashboards_list_every_act_waiting(demo, client):
    waiting = set(
        Obligation.objects.filter(kind="act", status="open", case__status=Case.Status.OPEN).values_list(
            "case__number", "deadline_id"
        )
    )
    assert len(waiting) >= 5
    for role in OVERSEERS:
        rows = dashboard_rows(client, role.demo_username)
        shown = {(r["case_number"], r["deadline_id"]) for r in rows}
        assert waiting <= shown, role.group


def walk_through_to_the_recommendation():
    """The README's walk-through on Greta's case (BL-2026-0003): her hearing request, the hearing scheduled,
    held and decided, then the hearing officer's written recommendation to the City Council."""
    from dogcase.demo.dates import d, t
    from dogcase.demo.seed import play_steps
    from dogcase.demo.story import HEARING_OFFICER

    users = {r.demo_username: User.objects.get(username=r.demo_username) for r in ROLES}
    case = Case.objects.get(number="BL-2026-0003")
    steps = [
        ("receive_hearing_request", "clerk", 3, {"received_on": d(3)}),
        (
            "schedule_hearing",
            "clerk",
            3,
            {
                "hearing_at": t(2, 9),
                "place": "City Hall council chambers",
                "hearing_officer": HEARING_OFFICER,
            },
        ),
        ("hold_hearing", "hearing", 2, {"held_on": d(2), "owner_present": True}),
        (
            "decide_appeal",
            "hearing",
            1,
            {
                "outcome": "upheld",
                "reasons": "The bite was unprovoked; the owner offered no evidence that the dog was provoked.",
                "method": "registered_mail",
            },
        ),
        ("recommend", "hearing", 1.1, {"outcome": "confirm"}),
    ]
    return play_steps(case, steps, users)


def test_the_council_clerk_sees_the_recommendation_waiting_after_the_walk_through(demo, client):
    client.force_login(User.objects.get(username="council"))
    before = client.get("/").context["sections"]
    council = next(s for s in before if s["id"] == "council")
    assert "BL-2026-0003" not in {r["case_number"] for r in council["rows"]}

    walk_through_to_the_recommendation()

    response = client.get("/")
    council = next(s for s in response.context["sections"] if s["id"] == "council")
    row = next(r for r in council["rows"] if r["case_number"] == "BL-2026-0003")
    assert row["deadline_id"] == "act:confirm_or_rescind"
    assert row["what"] == "City Council: confirm or rescind the designation"
    assert row["citation"] == "§ 90.15 (I)(4)"
    assert row["countdown"]["text"] == "no time set by law"
    html = response.content.decode()
    assert "City Council: confirm or rescind the designation" in html
    # no other role is handed the Council's act
    for other in ("officer", "clerk", "hearing"):
        rows = dashboard_rows(client, other)
        assert ("BL-2026-0003", "act:confirm_or_rescind") not in {
            (r["case_number"], r["deadline_id"]) for r in rows
        }, other
    # once the Council has acted, the act is no longer waiting
    case = Case.objects.get(number="BL-2026-0003")
    from dogcase.demo.seed import play_steps

    users = {"council": User.objects.get(username="council")}
    play_steps(
        case,
        [
            (
                "confirm_or_rescind",
                "council",
                1.2,
                {"outcome": "confirmed", "resolution": "Resolution 2026-41"},
            )
        ],
        users,
    )
    rows = dashboard_rows(client, "council")
    assert ("BL-2026-0003", "act:confirm_or_rescind") not in {
        (r["case_number"], r["deadline_id"]) for r in rows
    }
