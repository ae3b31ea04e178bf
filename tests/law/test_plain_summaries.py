"""A classification's summaries are sentences for people: the missing facts are listed (with their questions)
beside them, never spelled out as engine identifiers inside them."""

import datetime as dt

from dogcase.law import library


def test_an_undetermined_answer_counts_the_missing_answers_without_naming_fact_ids():
    j = library().get("battle-lake-mn")
    facts = j.facts.parse({"bit": True, "victim": "human", "injury": "minor", "place": "public"})
    answer = j.classify(facts, dt.date(2026, 5, 1)).as_dict()
    undetermined = [
        item for item in answer["designations"] + answer["eligibilities"] if item["status"] == "undetermined"
    ]
    assert undetermined  # provocation, the victim's conduct and more are not given
    for item in undetermined:
        assert item["missing_facts"]
        assert not any(m["fact"] in item["summary"] for m in item["missing_facts"]), item["summary"]
        assert "more answer" in item["summary"]
