"""The demo's files brought in (docs/data.md, "Bringing records in"): in Battle Lake, the clerk's licence
spreadsheet brought in (dogs, with their owners and homes), then the clerk's incident log and a case under way
when the city moved to dogcase (Pepper, declared potentially dangerous and served before dogcase: brought in at
its stage, its clocks counted from its own dates), and a second sheet checked, waiting to be brought in; in Tracy, a list of owners from ASM3 whose check found a problem (an e-mail address that is none), which
nothing is brought in from until the file is corrected. Played through the import's own acts, the background
jobs run at once."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile

from dogcase.demo.dates import d
from dogcase.imports import service
from dogcase.imports.models import ImportRun

LICENCES = """Dog name,Breed,Sex,Spayed or neutered,Date of birth,Microchip,Licence,Owner name,Owner address,Owner city,Owner phone
Pepper,Border Collie,Female,Yes,2019,985112007700101,BL-2026-0311,Karin Solheim,118 Summit Ave W,Battle Lake,218-555-0311
Moose,Newfoundland,Male,No,2017,985112007700102,BL-2026-0312,Dale Wick,5 Lake Ave S,Battle Lake,218-555-0312
Ziggy,Jack Russell Terrier,Male,Yes,2022,985112007700103,BL-2026-0313,Dale Wick,5 Lake Ave S,Battle Lake,218-555-0312
"""


def incident_log() -> str:
    return f"""Incident ID,Date,Where,City,Kind of place,What happened,Microchip,Notes
BL-LOG-0147,{d(52)},Battle Lake public beach,Battle Lake,Public place,Bite,985112007700101,"Bit a swimmer's arm on the beach; the swimmer had not approached the dog."
"""


def open_cases() -> str:
    # the incident log records no facts the law asks of a designation: the declaration says why it was made
    # (docs/data.md, "Open cases, at the stage they have reached")
    return f"""Case ID,Incident,Designation,Declared on,Basis,Reason for the declaration,Notice served on,Served how,Notice received
BL-LOG-C-031,BL-LOG-0147,Potentially dangerous,{d(48)},"Unprovoked bite on a person in a public place (the beach), see the incident log.","The officer's report in the clerk's files says the swimmer was bitten on the arm, unprovoked, on the public beach; the incident log does not record it.",{d(47)},Personal,{d(47)}
"""


LATE_LICENCES = """Dog name,Breed,Sex,Microchip,Licence,Owner name,Owner address
Juniper,Golden Retriever,Female,985112007700104,BL-2026-0340,Oskar Lund,41 Glenhaven Dr
"""
TRACY_PEOPLE = """PERSONCODE,PERSONFIRSTNAME,PERSONLASTNAME,PERSONADDRESS,PERSONCITY,PERSONSTATE,PERSONZIPCODE,PERSONHOMEPHONE,PERSONEMAIL
XP-000311,Marit,Eklund,260 Harvey St,Tracy,MN,56175,507-555-0311,marit.eklund@example.org
XP-000312,Ben,Ortiz,18 4th St,Tracy,MN,56175,507-555-0312,ben.ortiz(at)example
"""


def _file(city: str, name: str, text: str, kind: str, source: str, clerk) -> ImportRun:
    run = service.receive(
        SimpleUploadedFile(name, text.encode()), city=city, kind=kind, source=source, actor=clerk
    )
    from dogcase.imports import fields

    suggested = fields.suggest(kind, run.columns, service.remembered(run))
    given = {k: v.get("column") or f"value:{v['value']}" for k, v in suggested.items()}
    service.set_columns(run, given, actor=clerk)
    return service.run_check(run.pk)


def demo_imports(users: dict) -> None:
    clerk = users.get("clerk")
    if clerk is None or ImportRun.objects.exists():
        return
    run = _file("battle-lake-mn", "licences-2026.csv", LICENCES, "dogs", "Clerk's licence spreadsheet", clerk)
    service.confirm(run, actor=clerk)
    service.run_import(run.pk)
    run = _file(
        "battle-lake-mn", "incident-log.csv", incident_log(), "incidents", "Clerk's incident log", clerk
    )
    service.confirm(run, actor=clerk)
    service.run_import(run.pk)
    run = _file("battle-lake-mn", "open-cases.csv", open_cases(), "cases", "Clerk's incident log", clerk)
    service.confirm(run, actor=clerk, attest=True)
    service.run_import(run.pk)
    _file("battle-lake-mn", "licences-late.csv", LATE_LICENCES, "dogs", "Clerk's licence spreadsheet", clerk)
    _file("tracy-mn", "asm3-people.csv", TRACY_PEOPLE, "people", "ASM3", clerk)
