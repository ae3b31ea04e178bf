"""Fewer indexes written at every event: a file of records brought in writes an event per record.

- The hearing officer's index (the steps that designated them) holds legal acts only: a record's event is
  not read for an officer at all (its data is no longer parsed at each insert).
- The event's `case` and `jurisdiction` lose the index of their own: (case, seq) and (jurisdiction, act, at)
  begin with them and serve every query that one did.

The two columns' indexes are dropped by name as the database reports them, not by altering the fields: on
SQLite, Django alters a field by rebuilding the table, which would lose the append-only triggers and the
indexes created in SQL (cases 0004, 0008).
"""

import django.db.models.deletion
import django.db.models.fields.json
import django.db.models.functions.comparison
from django.db import migrations, models

SINGLE_COLUMN = ("case_id", "jurisdiction")


def _single_column_indexes(schema_editor, model, column: str) -> list[str]:
    with schema_editor.connection.cursor() as cursor:
        found = schema_editor.connection.introspection.get_constraints(cursor, model._meta.db_table)
    return [
        name
        for name, c in found.items()
        if c["index"] and not c["unique"] and not c["primary_key"] and c["columns"] == [column]
    ]


def drop_single_column_indexes(apps, schema_editor):
    model = apps.get_model("cases", "Event")
    for column in SINGLE_COLUMN:
        for name in _single_column_indexes(schema_editor, model, column):
            schema_editor.execute(f"DROP INDEX IF EXISTS {schema_editor.quote_name(name)}")


def create_single_column_indexes(apps, schema_editor):
    model = apps.get_model("cases", "Event")
    for column in SINGLE_COLUMN:
        if _single_column_indexes(schema_editor, model, column):
            continue
        field = model._meta.get_field(column.removesuffix("_id"))
        schema_editor.execute(schema_editor._create_index_sql(model, fields=[field]))
        like = getattr(
            schema_editor, "_create_like_index_sql", None
        )  # PostgreSQL's LIKE index of a text column
        if like is not None and (sql := like(model, field)) is not None:
            schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [
        ("cases", "0022_dashboard_like_index"),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="event",
            name="event_hearing_officer",
        ),
        migrations.AddIndex(
            model_name="event",
            index=models.Index(
                django.db.models.functions.comparison.Cast(
                    django.db.models.fields.json.KeyTextTransform(
                        "hearing_officer", django.db.models.fields.json.KeyTextTransform("inputs", "data")
                    ),
                    output_field=models.CharField(),
                ),
                models.F("seq"),
                condition=models.Q(("kind", "step")),
                name="event_hearing_officer",
            ),
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="event",
                    name="case",
                    field=models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="events",
                        to="cases.case",
                    ),
                ),
                migrations.AlterField(
                    model_name="event",
                    name="jurisdiction",
                    field=models.CharField(max_length=64),
                ),
            ],
            database_operations=[
                migrations.RunPython(drop_single_column_indexes, create_single_column_indexes),
            ],
        ),
    ]
