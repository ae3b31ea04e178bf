"""The scale benchmark's pages on a small data set: correctness only, no timing. A list's deep page is the page
its name says (reached by the cursor the list's own links carry, never the first page again), each page has
its two floors beside it, and the raw SQL floor of a list page reads the rows the page shows."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from bench import scale, scale_pages
from dogcase.cases.access import cities_of
from dogcase.staff import queries
from dogcase.staff.views import records

SIZE = 5  # pages of 5 rows: every list of the small data set has a page deep in it


@pytest.fixture
def data_set(db, monkeypatch):
    call_command(
        "seed_scale", dogs=400, incidents=40, cases=24, seed=3, stdout=io.StringIO(), stderr=io.StringIO()
    )
    monkeypatch.setattr(records, "PAGE_SIZE", SIZE)


@pytest.fixture
def officer(data_set):
    return get_user_model().objects.get(username="officer")


@pytest.fixture
def client(officer):
    client = Client(HTTP_HOST="localhost")
    client.force_login(officer)
    return client


def test_each_list_is_measured_on_its_first_page_and_on_a_page_deep_in_it(data_set, officer, client):
    rows, _ = scale.measure_pages(reps=1, budget=0)
    for spec in scale_pages.LISTS:
        first, deep = (r for r in rows if r["page"].startswith(spec.name + ","))
        assert first["page"] == f"{spec.name}, page 1" and first["url"] == spec.path
        depth = deep["depth"]
        assert (
            depth["page"] >= 2
            and deep["page"] == f"{spec.name}, page {depth['page']:,} of {depth['pages']:,} (cursor)"
        )
        # what the view shows at the URL timed, read from the view's own context: not the first page, and the
        # rows the list holds at that depth, in its order
        response = client.get(deep["url"])
        page = response.context["page"]
        ordered = list(getattr(queries, spec.queryset)(officer).order_by(*spec.order()))
        start = (depth["page"] - 1) * SIZE
        assert not page.is_first and not page.position_ignored
        assert [r.pk for r in page] == [r.pk for r in ordered[start : start + SIZE]]
        assert page.object_list[0].pk != ordered[0].pk
        # deep: most of the list's pages before it
        assert depth["pages"] == -(-len(ordered) // SIZE) and depth["page"] >= 0.8 * depth["pages"]
        # the floor of that page reads those rows (and the one after them)
        sql, params = scale_pages.list_sql(spec, cities_of(officer), depth["after"], SIZE + 1)
        assert [r[0] for r in scale_pages.run_sql(sql, params)] == [
            r.pk for r in ordered[start : start + SIZE + 1]
        ]


def test_a_deep_page_that_is_the_first_page_fails_the_run(data_set, officer, client, monkeypatch):
    spec = next(s for s in scale_pages.LISTS if s.name == "dog list")
    one = client.get(spec.path).content
    deep = scale_pages.position(spec, officer, 10)
    # `?page=N` is not a position the lists know: it shows the first page, and the run refuses to time it
    assert client.get(f"{spec.path}?page=10").context["page"].is_first
    with pytest.raises(scale_pages.NotThatPage, match="page 10"):
        scale_pages.check_page(
            client.get(f"{spec.path}?page=10").content, spec, deep, scale_pages.first_row(one, spec)
        )
    scale_pages.check_page(client.get(scale_pages.cursor_url(spec, deep["after"])).content, spec, deep, None)
    # a cursor built otherwise than the view encodes it is caught against the page's own "next" link
    monkeypatch.setattr(scale_pages, "cursor_url", lambda spec, after: f"{spec.path}?page=2")
    with pytest.raises(scale_pages.NotThatPage, match="links to"):
        scale_pages.list_pages(spec, client, officer)


def test_every_page_has_its_two_floors_and_the_table_prints_them(data_set):
    rows, _ = scale.measure_pages(reps=1, budget=0)
    assert {r["status"] for r in rows} == {200}
    for r in rows:
        assert r["floor_sql_ms"] > 0 and r["floor_empty_ms"] > 0
        assert r["floor_sql"]["statements"] >= 1 and r["floor_empty"]["queries"] < r["queries"]
        # a record's page and a list page: one hand-written statement; the others their own, sent again
        mine = r["page"].startswith(("dashboard", "search", "Law page"))
        assert r["floor_sql"]["replayed"] is mine
        if not mine:
            assert r["floor_sql"]["statements"] == 1
    how = scale_pages.method(1, 0.0, "none")
    text = scale.table(
        {
            "parameters": {"dogs": 400, "incidents": 40, "cases": 24, "seed": 3},
            "environment": {"postgresql": "-", "cpus": 1},
            "sweep": [],
            "pages": rows,
            "pages_method": how,
            "writers": [],
        }
    )
    assert "| page (role) | p50 ms | p95 ms | queries | floor raw SQL ms | floor empty request ms |" in text
    assert "- client: django.test.Client" in text and "- analyze: none" in text
    assert "| dog list, page 1 (officer) |" in text and " (cursor) (officer) |" in text


def test_search_is_timed_on_the_most_common_surname_and_dog_name(data_set, officer, client):
    from collections import Counter

    from dogcase.cases.models import Dog, Person

    cities = cities_of(officer)
    (surname, bearers), (dog_name, dogs_named) = scale_pages.most_common(cities)
    people = [
        n.split() for n in Person.objects.filter(jurisdiction__in=cities).values_list("full_name", flat=True)
    ]
    surnames = Counter(words[1] for words in people if len(words) == 2)
    assert bearers == max(surnames.values()) == surnames[surname] > 1
    dogs = Counter(Dog.objects.filter(jurisdiction__in=cities).values_list("name", flat=True))
    assert dogs_named == max(dogs.values()) == dogs[dog_name] > 1
    urls, chosen = scale_pages.page_urls(client, officer)
    assert (chosen["surname"], chosen["dog_name"]) == (surname, dog_name)
    assert f"/search?q={surname}" in [url for _name, url, _plan in urls]
