# Audit chains per case and per city (docs/cases.md, "The audit trail"): every event gets its chain and its
# place in it; the head of each chain is its own row. Existing events and the one head were the chain
# "global"; 0005 numbers them in it and seals it, 0006 makes the place required and events append-only.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("cases", "0004_sweep_incremental"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="chain",
            field=models.CharField(default="global", max_length=80),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="event",
            name="chain_seq",
            field=models.BigIntegerField(null=True),
        ),
        migrations.AddField(
            model_name="chainhead",
            name="chain",
            field=models.CharField(default="global", max_length=80, unique=True),
            preserve_default=False,
        ),
    ]
