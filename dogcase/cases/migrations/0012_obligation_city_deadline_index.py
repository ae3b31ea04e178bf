from django.db import migrations

# The dashboards' lists are read from the law as deadline ids per city (the deadlines a list's acts meet, the
# deadlines a role's steps meet): a partial index of the active obligations by city and deadline id, in due
# order within each, finds a list's rows without reading the city's other obligations. The columns after the
# order make it cover the lists' counts. The condition is the one the queries write (staff/search_index.py
# ACTIVE_OBLIGATION), the same text on both databases.
CREATE = (
    "CREATE INDEX IF NOT EXISTS obligation_active_city_deadline ON cases_obligation "
    "(jurisdiction, deadline_id, due_date, due_at, id, who, kind, status, case_id, staff_roles) "
    "WHERE status IN ('open', 'overdue')"
)
DROP = "DROP INDEX IF EXISTS obligation_active_city_deadline"


def create(apps, schema_editor):
    if schema_editor.connection.vendor in ("sqlite", "postgresql"):
        schema_editor.execute(CREATE)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor in ("sqlite", "postgresql"):
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("cases", "0011_event_indexes_for_dashboards")]

    operations = [migrations.RunPython(create, drop, elidable=False)]
