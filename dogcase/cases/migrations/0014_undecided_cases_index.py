from django.db import migrations, models

# The officer's incidents to decide are the open cases not yet declared, oldest first: a few among all the cases,
# and most of the oldest cases are decided, so a walk of every case in order read thousands to find them. A
# partial index holds just those cases, in that order (both databases write partial indexes).


class Migration(migrations.Migration):
    dependencies = [("cases", "0013_search_all_fields_index")]

    operations = [
        migrations.AddIndex(
            model_name="case",
            index=models.Index(
                condition=models.Q(("designation", ""), ("status", "open")),
                fields=["opened_at", "id", "jurisdiction"],
                name="case_undecided_opened",
            ),
        ),
    ]
