from django.db import migrations

# PostgreSQL: one GIN trigram index per searched table on all its searched fields joined (by a separator no
# search text holds), which a search of every field reads in one index scan; an OR of the fields' own
# indexes made the planner read the table instead (a surname searched among 1,000,000 people: a sequential
# scan of 52 ms). The fields as of this migration (dogcase/staff/search_index.py SEARCHED); the expression is
# search_index.all_fields_expression's, which the queries write.
SEARCHED = {
    "cases_dog": ("name", "microchip_number", "licence_number", "breed"),
    "cases_person": ("full_name", "street", "phone", "email", "postal_code"),
    "cases_premises": ("street",),
    "cases_incident": ("number", "place"),
    "cases_case": ("number",),
}


def _expression(fields) -> str:
    return "UPPER(" + " || chr(31) || ".join(f"COALESCE(\"{f}\"::text, '')" for f in fields) + ")"


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table, fields in SEARCHED.items():
        if len(fields) > 1:  # a table searched in one field has that field's index already
            schema_editor.execute(
                f"CREATE INDEX IF NOT EXISTS {table}_search_trgm ON {table} USING gin "
                f"(({_expression(fields)}) gin_trgm_ops) WITH (fastupdate = off)"
            )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in SEARCHED:
        schema_editor.execute(f"DROP INDEX IF EXISTS {table}_search_trgm")


class Migration(migrations.Migration):
    dependencies = [("cases", "0012_obligation_city_deadline_index")]

    operations = [migrations.RunPython(create, drop, elidable=False)]
