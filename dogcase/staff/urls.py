from django.urls import path

from dogcase.staff.views import (
    calendar,
    cases,
    city_settings,
    corrections,
    dashboard,
    edits,
    incidents,
    mail,
    moves,
    observations,
    records,
)

app_name = "staff"

urlpatterns = [
    path("", dashboard.home, name="home"),
    path("search", records.search, name="search"),
    path("city-settings/", city_settings.city_settings, name="city_settings"),
    path("city-settings/new", city_settings.city_new, name="city_new"),
    path("cases/", records.case_list, name="cases"),
    path("cases/<str:number>", cases.case_detail, name="case"),
    path("cases/<str:number>/moved-from/documents/<int:pk>", moves.moved_document, name="moved_document"),
    path("cases/<str:number>/act/<slug:step_id>", cases.act_form, name="act"),
    path("cases/<str:number>/events/<int:seq>/correct", corrections.correct_date, name="correct"),
    path(
        "cases/<str:number>/events/<int:seq>/correct-value", corrections.correct_value, name="correct_value"
    ),
    path("dogs/", records.dog_list, name="dogs"),
    path("dogs/<int:pk>", records.dog_detail, name="dog"),
    path("dogs/<int:pk>/edit", edits.edit_dog, name="dog_edit"),
    path("dogs/<int:pk>/owners/add", edits.add_owner, name="owner_add"),
    path("dogs/<int:pk>/prior-history/add", edits.add_prior_history, name="prior_history_add"),
    path("dogs/<int:pk>/owners/<int:ownership_id>/end", edits.end_ownership, name="owner_end"),
    path("premises/<int:pk>/edit", edits.edit_premises, name="premises_edit"),
    path("people/", records.person_list, name="people"),
    path("people/<int:pk>", records.person_detail, name="person"),
    path("people/<int:pk>/edit", edits.edit_person, name="person_edit"),
    path("incidents/", records.incident_list, name="incidents"),
    path("incidents/new", incidents.new_incident, name="incident_new"),
    path("incidents/new/classify", incidents.classify_partial, name="incident_classify"),
    path("incidents/new/row/<slug:kind>", incidents.intake_row, name="incident_row"),
    path("incidents/<str:number>", records.incident_detail, name="incident"),
    path("incidents/<str:number>/add", edits.add_to_incident, name="incident_add"),
    path("files/<int:pk>", cases.download, name="file"),
    path("observations/", observations.observation_list, name="observations"),
    path("observations/<int:pk>", observations.observation_detail, name="observation"),
    path("tasks/<int:pk>/done", cases.task_done, name="task_done"),
    path("calendar/", calendar.hearing_calendar, name="calendar"),
    path("mail/today", mail.mail_today, name="mail_today"),
    path("mail/today.pdf", mail.mail_today_pdf, name="mail_today_pdf"),
]
