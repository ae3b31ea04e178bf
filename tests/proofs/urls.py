"""A test-only URLconf for the owner's proof pages: the portal's decorator (not on this branch) is stood in for
by one that reads the owner's person id from the session, as the portal's session would hold it."""

from functools import wraps

from django.http import Http404
from django.urls import include, path

from dogcase.cases.models import Case, Person
from dogcase.proofs import owner_views


def owner_case_view(view):
    @wraps(view)
    def wrapped(request, number, *args, **kwargs):
        person_id = request.session.get("test_owner")
        try:
            case = Case.objects.select_related("dog").get(number=number)
            person = Person.objects.get(pk=person_id)
        except (Case.DoesNotExist, Person.DoesNotExist):
            raise Http404("No such case.") from None
        return view(request, case, person, *args, **kwargs)

    return wrapped


urlpatterns = [
    path("owner/cases/<str:number>/proof/", owner_case_view(owner_views.proof_list)),
    path("owner/cases/<str:number>/proof/<slug:condition>/", owner_case_view(owner_views.proof_upload)),
    path("", include("config.urls")),
]
