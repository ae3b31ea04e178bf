from django.db import migrations

# PostgreSQL: one GIN trigram index on several searched fields joined (by a separator no search text holds),
# which a search of those fields reads in one index scan; an OR of the fields' own indexes made the planner read
# the table instead (a surname searched among 1,000,000 people: a sequential scan of 52 ms). The fields as of
# this migration (dogcase/staff/search_index.py COMBINED); the expression is search_index.all_fields_expression's,
# which the queries write.
COMBINED = {
    "cases_dog_search_trgm": ("cases_dog", ("name", "microchip_number", "licence_number", "breed")),
    "cases_dog_ident_trgm": ("cases_dog", ("name", "microchip_number", "licence_number")),
    "cases_person_search_trgm": ("cases_person", ("full_name", "street", "phone", "email", "postal_code")),
    "cases_incident_search_trgm": ("cases_incident", ("number", "place")),
}


def _expression(fields) -> str:
    return "UPPER(" + " || chr(31) || ".join(f"COALESCE(\"{f}\"::text, '')" for f in fields) + ")"


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name, (table, fields) in COMBINED.items():
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {name} ON {table} USING gin "
            f"(({_expression(fields)}) gin_trgm_ops) WITH (fastupdate = off)"
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name in COMBINED:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [("cases", "0012_obligation_city_deadline_index")]

    operations = [migrations.RunPython(create, drop, elidable=False)]
