from django.db import migrations, models

from dogcase.staff import search_index

# The searched fields of the person table as of migration 0008 (dogcase/staff/search_index.py SEARCHED).
PERSON_SEARCHED = ("full_name", "street", "phone", "email", "postal_code")


def rebuild_person_search(apps, schema_editor):
    """SQLite adds a NOT NULL column by copying the table into a new one, which drops the triggers that keep
    the person search index (migration 0008) in step: build them again. PostgreSQL alters the table in place
    and keeps its indexes."""
    if schema_editor.connection.vendor != "sqlite":
        return
    for sql in search_index.sqlite_drop("cases_person") + search_index.sqlite_create(
        "cases_person", PERSON_SEARCHED
    ):
        schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [
        ("cases", "0009_city_access_names"),
    ]

    operations = [
        # undone last when migrating back: removing the column copies the table again
        migrations.RunPython(migrations.RunPython.noop, rebuild_person_search),
        migrations.AddField(
            model_name="person",
            name="preferred_language",
            field=models.CharField(
                choices=[("en", "English"), ("es", "Spanish (español)")],
                default="en",
                max_length=8,
                verbose_name="language for letters",
            ),
        ),
        migrations.RunPython(rebuild_person_search, migrations.RunPython.noop),
    ]
