"""An event's corrections are found through an index of the corrections alone.

Before a hearing is scheduled, its room is checked against the city's other hearings (cases/hearings.py
`bookings`): the scheduling acts near that time, or any corrected since. PostgreSQL answered "corrected since"
by reading every correction of the state, and with no index that holds corrections only, that is every event
of the state: 35 to 54 ms at about 95,000 events, growing with the whole trail, at every hearing scheduled.
The index `event_corrections` holds the corrections only (kind "correction", the only events that correct
another); the single-column index of `corrects`, a NULL for nearly every event, is dropped (every query of
corrections asks for kind "correction"), and every event written has one index fewer to keep.

The old index is dropped by the name the database reports, not by altering the field: on SQLite, Django alters
a field by rebuilding the table, which would lose the append-only triggers and the indexes created in SQL.
"""

from django.db import migrations, models

COLUMN = "corrects_id"


def _column_indexes(schema_editor, model) -> list[str]:
    with schema_editor.connection.cursor() as cursor:
        found = schema_editor.connection.introspection.get_constraints(cursor, model._meta.db_table)
    return [
        name
        for name, c in found.items()
        if c["index"] and not c["unique"] and c["columns"] == [COLUMN] and name != "event_corrections"
    ]


def drop_column_index(apps, schema_editor):
    for name in _column_indexes(schema_editor, apps.get_model("cases", "Event")):
        schema_editor.execute(f"DROP INDEX IF EXISTS {schema_editor.quote_name(name)}")


def create_column_index(apps, schema_editor):
    model = apps.get_model("cases", "Event")
    if not _column_indexes(schema_editor, model):
        schema_editor.execute(
            schema_editor._create_index_sql(model, fields=[model._meta.get_field("corrects")])
        )


def analyze_new_index(apps, schema_editor):
    """On SQLite that has the planner's figures of the events (ANALYZE), the new index's figures too."""
    if schema_editor.connection.vendor != "sqlite":
        return  # PostgreSQL's figures are of the table's columns: a new index needs none
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'")
        if cursor.fetchone() is None:
            return
        cursor.execute("SELECT 1 FROM sqlite_stat1 WHERE tbl = 'cases_event' LIMIT 1")
        if cursor.fetchone() is not None:
            cursor.execute('ANALYZE "event_corrections"')


class Migration(migrations.Migration):
    dependencies = [
        ("cases", "0025_event_hash_not_indexed"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="event",
            index=models.Index(
                fields=["corrects"], condition=models.Q(kind="correction"), name="event_corrections"
            ),
        ),
        migrations.RunPython(analyze_new_index, migrations.RunPython.noop),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="event",
                    name="corrects",
                    field=models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=models.PROTECT,
                        related_name="corrections",
                        to="cases.event",
                    ),
                ),
            ],
            database_operations=[
                migrations.RunPython(drop_column_index, create_column_index),
            ],
        ),
    ]
