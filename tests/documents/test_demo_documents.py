"""The demo cases of both cities issue real documents: every one's PDF holds every element's value."""

import pytest
from django.utils import timezone

from dogcase.demo import load_demo
from dogcase.documents.models import IssuedDocument
from dogcase.law import library
from tests.documents.conftest import contains_values, pdf_text

pytestmark = pytest.mark.django_db


def test_the_demo_cases_issue_their_documents_with_every_value(staff, media):
    load_demo()
    docs = list(IssuedDocument.objects.order_by("jurisdiction", "doc_type", "id"))
    issued = {(d.jurisdiction, d.doc_type) for d in docs}
    print("\n".join(f"{j} {t}" for j, t in sorted(issued)))
    assert ("battle-lake-mn", "pdd_declaration_notice") in issued
    assert ("battle-lake-mn", "dangerous_declaration_notice") in issued
    assert ("tracy-mn", "vicious_classification_notice") in issued
    # (K): the notice of the intended destruction and the Council's decision on it; Subd 8.C: the impoundment decision
    assert ("battle-lake-mn", "k_destruction_notice") in issued
    assert ("battle-lake-mn", "council_destruction_decision") in issued
    assert ("tracy-mn", "impoundment_decision") in issued
    for d in docs:
        assert contains_values(d, pdf_text(d)) == [], (d.number, d.doc_type)


def test_every_document_a_city_can_issue_is_shown_by_a_demo_case(staff, media):
    """Each city's documents (its own and the state's it does not replace), less the forms that are pages of a
    notice: the demo issues every one, so a newcomer sees each on a case."""
    load_demo()
    issued = set(IssuedDocument.objects.values_list("jurisdiction", "doc_type"))
    today = timezone.localdate()
    for city in ("battle-lake-mn", "tracy-mn"):
        j = library().get(city)
        types = j.all_document_types(today)
        attached = {a for t in types for a in t.attachments}
        replaced = {r for d in j._documents.defs.values() for r in d[-1].replaces}
        expected = {t.id for t in types} - attached - replaced
        assert expected, city
        assert expected <= {t for c, t in issued if c == city}, (
            city,
            sorted(expected - {t for c, t in issued}),
        )
