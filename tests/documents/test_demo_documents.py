"""The demo cases of both cities issue real documents: every one's PDF holds every element's value."""

import pytest

from dogcase.cases.demo import load_demo
from dogcase.documents.models import IssuedDocument
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
