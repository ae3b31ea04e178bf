# Every event has its place in its chain; events are append-only in the database itself (triggers on
# PostgreSQL and SQLite, dogcase.cases.append_only); PostgreSQL numbers events from a sequence, so that
# writers on different chains never wait for one another.

from django.db import migrations, models


def install(apps, schema_editor):
    from dogcase.cases import append_only

    with schema_editor.connection.cursor() as cursor:
        for statement in append_only.sequence_sql(schema_editor.connection.vendor):
            cursor.execute(statement)
    append_only.install(schema_editor.connection)


def remove(apps, schema_editor):
    from dogcase.cases import append_only

    append_only.remove(schema_editor.connection)
    if schema_editor.connection.vendor == "postgresql":
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(f"DROP SEQUENCE IF EXISTS {append_only.SEQUENCE}")


class Migration(migrations.Migration):
    dependencies = [
        ("cases", "0006_chain_cutover"),
    ]

    operations = [
        migrations.AlterField(
            model_name="event",
            name="chain_seq",
            field=models.BigIntegerField(),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.UniqueConstraint(fields=("chain", "chain_seq"), name="unique_event_chain_seq"),
        ),
        migrations.RunPython(install, remove),
    ]
