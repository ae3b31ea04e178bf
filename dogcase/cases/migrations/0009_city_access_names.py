from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("cases", "0008_pages_indexes_search")]

    operations = [
        migrations.AlterModelOptions(
            name="cityaccess",
            options={"verbose_name": "city access", "verbose_name_plural": "city access"},
        ),
    ]
