from django.urls import path

from dogcase.owners import staff_views, views
from dogcase.owners.access import owner_case_view
from dogcase.proofs import owner_views as proof_views

app_name = "owners"

urlpatterns = [
    path("owner/", views.sign_in, name="sign_in"),
    path("owner/link/<str:token>", views.link, name="link"),
    path("owner/sign-out", views.sign_out, name="sign_out"),
    path("owner/cases/<str:number>/", views.case_page, name="case"),
    path("owner/cases/<str:number>/documents/<int:pk>.pdf", views.document, name="document"),
    path("owner/cases/<str:number>/file/<slug:step_id>", views.file_step, name="file"),
    # the proof of the conditions of registration (dogcase/proofs): what is needed, and a form per condition
    path("owner/cases/<str:number>/proof/", owner_case_view(proof_views.proof_list), name="proofs"),
    path(
        "owner/cases/<str:number>/proof/<slug:condition>/",
        owner_case_view(proof_views.proof_upload),
        name="proof_upload",
    ),
    path("staff/cases/<str:number>/owner-access/<int:person_id>/issue", staff_views.issue, name="issue_code"),
    path(
        "staff/cases/<str:number>/owner-access/codes/<int:pk>/revoke", staff_views.revoke, name="revoke_code"
    ),
]
