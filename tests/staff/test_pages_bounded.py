"""Pages that stay small and fast whatever the size of the city: search through the search index (the same
answers on SQLite and PostgreSQL), the dashboard's lists read in full a page at a time, and a record's
history a page at a time."""

import datetime as dt
import re

import pytest
from django.db import connection, transaction
from django.db.models import BooleanField
from django.db.models.expressions import RawSQL
from django.test.utils import CaptureQueriesContext

from dogcase.cases import acts, updates
from dogcase.cases.models import Dog, Incident, Person
from tests.staff.conftest import BATTLE_LAKE, TRACY, client_for, record_bite
from tests.staff.test_dashboard import appeal_received, section

pytestmark = pytest.mark.django_db


def found(client, q):
    response = client.get("/search", {"q": q})
    assert response.status_code == 200
    return response.context["results"]


def queries_of(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


# ------------------------------------------------------------------------------------------------ search


def test_search_matches_any_part_of_a_field_whatever_the_case(officer):
    case = record_bite(officer, dog_name="Biscuit Barrel", owner_name="Harriet Quist-Olsen")
    dog, owner = case.dog, case.dog.owners.get()
    client = client_for(officer)
    assert [d.pk for d in found(client, "CUIT bar").dogs] == [dog.pk]  # the middle of the name
    assert [p.pk for p in found(client, "st-ols").people] == [owner.pk]
    assert [d.pk for d in found(client, "quist").dogs] == [dog.pk]  # a dog by its owner's surname
    assert [c.pk for c in found(client, "quist").cases] == [case.pk]  # and its case
    assert [d.pk for d in found(client, dog.microchip_number[-6:]).dogs] == [dog.pk]
    assert [i.pk for i in found(client, "barrel").incidents] == [case.incident.pk]  # an incident by its dog
    assert [c.pk for c in found(client, case.number.lower()).cases] == [case.pk]
    assert found(client, "labrador").dogs  # the breed


def test_search_needs_three_characters_and_says_so(officer):
    record_bite(officer, dog_name="Bo")
    client = client_for(officer)
    results = found(client, "bo")
    assert results.count == 0 and results.too_short
    assert "Type at least three letters or digits." in client.get("/search", {"q": "bo"}).content.decode()


def test_a_changed_record_is_found_by_its_new_words_only(officer):
    case = record_bite(officer, dog_name="Pepper")
    client = client_for(officer)
    dog = Dog.objects.get(pk=case.dog.pk)
    updates.update_dog(dog, actor=officer, changes={"name": "Nutmeg"}, reason="Misheard at intake")
    person = case.dog.owners.get()
    updates.update_person(person, actor=officer, changes={"full_name": "Ola Brandvold"}, reason="Misspelt")
    assert [d.pk for d in found(client, "nutmeg").dogs] == [dog.pk]
    assert found(client, "pepper").dogs == []
    assert [p.pk for p in found(client, "brandvold").people] == [person.pk]
    assert [d.pk for d in found(client, "brandvold").dogs] == [dog.pk]


@pytest.mark.parametrize(
    "q",
    ['"""', 'a"b"c', "NOT rex", "rex*", "name:rex", "{name} : rex", "NEAR(rex dog)", "^rex", "100%", "a_b"],
)
def test_text_that_means_something_to_the_index_is_searched_as_plain_text(officer, q):
    record_bite(officer, dog_name="Rex")
    literal = record_bite(officer, dog_name=f"Max {q}").dog
    results = found(client_for(officer), q)
    # the dog whose name holds the text as written is found; Rex, whom the text would match as an operator
    # ("NOT rex", "rex*", "name:rex"...), is not
    assert [d.pk for d in results.dogs] == [literal.pk]


def test_a_search_matches_within_one_field_never_across_two(officer):
    case = record_bite(officer, dog_name="Juniper", owner_name="Ann Jensen")
    owner = case.dog.owners.get()
    updates.update_person(owner, actor=officer, changes={"street": "12 Oak Street"}, reason="Moved")
    client = client_for(officer)
    assert [p.pk for p in found(client, "jensen").people] == [owner.pk]
    assert [p.pk for p in found(client, "oak str").people] == [owner.pk]  # another field of the same person
    assert found(client, "jensen 12").people == []  # the end of the name and the start of the street


def test_like_characters_in_a_search_are_matched_as_typed(officer):
    underscored = record_bite(officer, dog_name="Kip", owner_name="Kennel A_B").dog.owners.get()
    record_bite(officer, dog_name="Tip", owner_name="Kennel AXB")
    record_bite(officer, dog_name="Pip", owner_name="Kennel 100 Percent")
    client = client_for(officer)
    assert [p.pk for p in found(client, "a_b").people] == [underscored.pk]
    assert found(client, "100%").people == []
    assert found(client, "el%pe").people == []


@pytest.mark.skipif("connection.vendor != 'postgresql'")
def test_postgresql_searches_every_field_of_a_table_through_one_index(officer):
    """The expression the search writes is the one migration cases/0013 indexed: with the table's other
    ways of reading turned off, PostgreSQL finds the rows through that index."""
    from dogcase.staff import search_index

    record_bite(officer, dog_name="Juniper", owner_name="Ann Jensen")
    models = {m._meta.db_table: m for m in (Person, Dog, Incident)}
    assert {table for table, _ in search_index.COMBINED} == set(models)
    for (table, fields), index in search_index.COMBINED.items():
        condition = f"{search_index.all_fields_expression(table, fields)} LIKE UPPER(%s)"
        qs = models[table].objects.filter(RawSQL(condition, ["%jensen%"], output_field=BooleanField()))  # noqa: S611
        sql, params = qs.order_by().values("pk").query.sql_with_params()
        with transaction.atomic(), connection.cursor() as cur:
            # no table scan, no walk of another index in its order: only an index the condition can use
            cur.execute("SET LOCAL enable_seqscan = off")
            cur.execute("SET LOCAL enable_indexscan = off")
            cur.execute("EXPLAIN " + sql, params)
            plan = "\n".join(row[0] for row in cur.fetchall())
        assert f"Bitmap Index Scan on {index}" in plan, plan


def test_search_finds_only_the_users_cities(officer, make_staff_user):
    record_bite(officer, dog_name="Tracydog", city=TRACY)
    tracy_only = make_staff_user("animal_control_officer", username="bl-only", cities=[BATTLE_LAKE])
    assert found(client_for(tracy_only), "tracydog").count == 0
    assert found(client_for(officer), "tracydog").dogs


def test_search_runs_the_same_queries_for_1_and_30_matches(officer):
    record_bite(officer, dog_name="Rex", owner_name="Rex Owner")
    client = client_for(officer)
    client.get("/search?q=rex")
    few = queries_of(client, "/search?q=rex")
    for _ in range(29):
        record_bite(officer, dog_name="Rex", owner_name="Rex Owner")
    results = found(client, "rex")
    assert len(results.dogs) == 25 and results.is_capped
    assert queries_of(client, "/search?q=rex") == few


# ------------------------------------------------------------------------------------------- dashboard


def test_the_dashboard_shows_counts_and_the_most_urgent_first(officer, clerk):
    # a week apart: two requests a day apart can fall due the same day (a deadline on a weekend or a holiday
    # moves to the next business day), and then the earlier case comes first whatever the day the test runs
    bitten = acts.now() - dt.timedelta(days=90)
    cases = [appeal_received(officer, clerk, days_ago=40 + 7 * i, occurred_at=bitten) for i in range(6)]
    acts.sweep()
    response = client_for(clerk).get("/")
    other = section(response, "other")
    assert other["count"] == 6  # hold the hearing, for each of the six cases
    assert len(other["rows"]) == 6
    dues = [r["due"] for r in other["rows"]]
    assert dues == sorted(dues)  # the longest overdue first
    assert other["rows"][0]["case_number"] == cases[-1].number
    html = response.content.decode()
    assert 'data-count="other">6<' in html


def test_a_dashboard_list_is_read_in_full_a_page_at_a_time(officer, clerk, monkeypatch):
    from dogcase.staff.views import dashboard

    monkeypatch.setattr(dashboard, "LIST_PAGE", 10)
    for i in range(14):
        appeal_received(officer, clerk, days_ago=40 + i)
    acts.sweep()
    client = client_for(clerk)
    first = client.get("/?list=other")
    assert "staff/dashboard_list.html" in [t.name for t in first.templates]
    listing = first.context["list"]
    assert listing["count"] == 14 and listing["pages"] == 2 and len(listing["rows"]) == 10
    second = client.get("/?list=other&page=2").context["list"]
    assert len(second["rows"]) == 4
    seen = [(r["case_number"], r["deadline_id"]) for r in listing["rows"] + second["rows"]]
    assert len(set(seen)) == 14
    assert queries_of(client, "/?list=other") == queries_of(client, "/?list=other&page=2")
    # a page past the end shows the last; a page that is not a number, the first
    assert client.get("/?list=other&page=99").context["list"]["page"] == 2
    assert client.get("/?list=other&page=x").context["list"]["page"] == 1
    tasks = client.get("/?list=tasks").context["list"]
    assert (
        tasks["count"] == 28
        and len(tasks["rows"]) == 10
        and "Mark done" in client.get("/?list=tasks").content.decode()
    )
    # a list that is not one of the dashboard's, or not one of the user's: the dashboard
    assert "sections" in client.get("/?list=nonsense").context
    assert "sections" in client.get("/?list=seizures").context


def test_each_dashboard_list_holds_what_the_role_can_do(officer, clerk, auditor):
    appeal_received(officer, clerk, days_ago=40)
    acts.sweep()
    officer_board = client_for(officer).get("/")
    # the hearing is the clerk's work; the officer's own are an act waiting (the owner's receipt of the notice)
    # and the rabies observation the bite started
    officer_rows = [r for s in officer_board.context["sections"] for r in s["rows"]]
    assert officer_rows and all(
        r["deadline_id"].startswith(("act:", "rabies_observation")) for r in officer_rows
    ), officer_rows
    auditor_board = client_for(auditor).get("/")  # the auditor oversees it
    assert section(auditor_board, "schedule")["count"] == 1
    assert section(auditor_board, "hearings")["count"] == 1


# ---------------------------------------------------------------------------------------- record pages


def test_a_long_history_is_shown_a_page_at_a_time(officer):
    case = record_bite(officer, dog_name="Rex")
    dog = Dog.objects.get(pk=case.dog.pk)
    for n in range(55):
        dog = Dog.objects.get(pk=dog.pk)
        updates.update_dog(dog, actor=officer, changes={"colour": f"colour {n}"}, reason="Seen again")
    client = client_for(officer)
    latest = client.get(f"/dogs/{dog.pk}")
    assert len(latest.context["history"]) == 50
    assert "colour 54" in latest.content.decode()
    link = re.search(r'href="\?history_before=(\d+)#history">Earlier changes', latest.content.decode())
    assert link
    earlier = client.get(f"/dogs/{dog.pk}?history_before={link.group(1)}")
    whats = [h["what"] for h in earlier.context["history"]]
    assert "Dog first recorded" in whats and 1 <= len(whats) < 50  # the oldest events, the first among them
    assert "Dog first recorded" not in [h["what"] for h in latest.context["history"]]
    assert "The latest changes" in earlier.content.decode()
    assert queries_of(client, f"/dogs/{dog.pk}") == queries_of(
        client, f"/dogs/{dog.pk}?history_before={link.group(1)}"
    )
    # a position that is not a number: the latest page
    assert len(client.get(f"/dogs/{dog.pk}?history_before=x").context["history"]) == 50


def test_a_person_with_many_dogs_has_a_bounded_page(officer):
    case = record_bite(officer, dog_name="First")
    person = Person.objects.get(pk=case.dog.owners.get().pk)
    client = client_for(officer)
    few = queries_of(client, f"/people/{person.pk}")
    for n in range(52):
        acts.record_dog(jurisdiction=BATTLE_LAKE, actor=officer, owners=[person], name=f"Pup {n}")
    page = client.get(f"/people/{person.pk}")
    assert len(page.context["ownerships"]) == 50 and page.context["more_ownerships"]
    assert "The first 50 are shown" in page.content.decode()
    assert queries_of(client, f"/people/{person.pk}") == few


@pytest.fixture
def three_appeals(officer, clerk):
    """Three hearing requests received long ago, swept: the clerk's lists hold them."""
    for i in range(3):
        appeal_received(officer, clerk, days_ago=40 + i)
    acts.sweep()


def test_a_count_stops_at_the_cap_and_says_so(three_appeals, clerk, monkeypatch):
    from dogcase.staff import queries

    monkeypatch.setattr(queries, "COUNT_CAP", 2)
    client = client_for(clerk)
    listing = client.get("/?list=other").context["list"]
    assert listing["capped"] and listing["count_words"] == "more than 2"
    assert "The first" in client.get("/?list=other").content.decode()


def test_the_dashboard_summarises_sooner_than_a_lists_own_page_counts(three_appeals, clerk, monkeypatch):
    from dogcase.staff import queries

    monkeypatch.setattr(queries, "DASHBOARD_COUNT_CAP", 2)
    client = client_for(clerk)
    html = client.get("/").content.decode()
    assert 'data-count="other">more than 2<' in html and "See all more than 2" in html
    listing = client.get("/?list=other").context["list"]  # the list's page counts on, to COUNT_CAP
    assert (
        not listing["capped"] and listing["count"] >= 3 and listing["count_words"] == f"{listing['count']:,}"
    )


def test_a_short_list_is_ranked_among_the_ids_its_count_read_and_a_long_one_in_its_order(
    three_appeals, clerk, make_staff_user, monkeypatch, settings
):
    """Every list of the dashboard is counted, and a list of the cap or fewer items ranked among the ids its
    count read, in one query (no list walked in its order); an empty list reads no rows; the rows shown are read
    with their case and dog, one query a table. A longer list's first rows are its first of all, in its order:
    one query more, sorted on the list's own rows, whatever the number of such lists. (The statements as sent
    unprepared: prepared on PostgreSQL, they are the same words with the values written in,
    tests/staff/test_dashboard_prepared.py.)"""
    from dogcase.cases.pages import now_and_today
    from dogcase.staff import queries, ranked

    settings.DOGCASE_PG_PREPARE = "off"
    ranked.forget_kept()

    now, today = now_and_today()
    filters = queries._filters(clerk, queries.lists_for(clerk), today, now)
    walked = queries._section_rows(clerk, "other", filters, offset=0, size=10)
    assert len(walked) >= 3
    ordered = '"cases_obligation"."due_date" ASC'

    with CaptureQueriesContext(connection) as ctx:
        board = queries.dashboard(clerk, today=today, now=now)
    assert (board.counts["other"], [r.pk for r in board.rows["other"]]) == (
        len(walked),
        [r.pk for r in walked],
    )
    counted, *read = (q["sql"] for q in ctx.captured_queries)
    assert "ROW_NUMBER()" in counted and ordered not in counted
    assert len(read) == len({type(r) for rows in board.rows.values() for r in rows})
    assert any('"cases_obligation"."id" IN (' in q and "cases_dog" in q for q in read)

    # an officer's lists, where the appeals are the clerk's work: the seizures to make are empty
    officer = make_staff_user("animal_control_officer", username="other-officer")
    board = queries.dashboard(officer, today=today, now=now)
    assert board.counts["seizures"] == 0 and board.rows["seizures"] == []

    monkeypatch.setattr(queries, "DASHBOARD_COUNT_CAP", 2)
    with CaptureQueriesContext(connection) as ctx:
        board = queries.dashboard(clerk, today=today, now=now)
    assert board.counts["other"] == 3 and [r.pk for r in board.rows["other"]] == [r.pk for r in walked]
    # the long list's page in its order, sorted without the case and the dog joined; then the rows
    counted, again, *read = (q["sql"] for q in ctx.captured_queries)
    assert ordered not in counted and ordered in again and "cases_dog" not in again
    assert any('"cases_obligation"."id" IN (' in q and "cases_dog" in q for q in read)
