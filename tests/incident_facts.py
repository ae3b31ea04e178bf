"""Incident facts shared by the interface tests (CLI, API): one unprovoked bite on a person in public."""

UNPROVOKED_BITE_IN_PUBLIC = {
    "bit": True,
    "attacked": True,
    "victim": "human",
    "injury": "minor",
    "place": "public",
    "provoked": False,
    "victim_conduct": [],
    "law_enforcement_dog": False,
}
