"""A document of the case a moved dog's case came from (cases/acts/moves.py), for staff of the city it moved
to: that case alone, through the link, never another of that city's cases."""

from __future__ import annotations

from django.http import Http404

from dogcase.cases.guards import staff_required
from dogcase.cases.models import CaseMove
from dogcase.documents.models import IssuedDocument
from dogcase.documents.views import pdf_response
from dogcase.staff.views.cases import case_of_user


@staff_required
def moved_document(request, number: str, pk: int):
    """A document of the case a moved dog's case came from, for staff of the city it moved to."""
    case = case_of_user(request.user, number)
    came = CaseMove.objects.filter(to_case=case).first()
    if came is None:
        raise Http404("This case did not come from another city.")
    doc = IssuedDocument.objects.filter(pk=pk, case_id=came.from_case_id).first()
    if doc is None:
        raise Http404("No such document of the case it came from.")
    return pdf_response(doc)
