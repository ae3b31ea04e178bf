# Issue 19, item 6: a message handed to the mail server is marked so (handed_at), and a message its worker
# left half-done is queued again once (recoveries) by dogcase.messaging.recovery.

from django.db import migrations, models
from django.db.models import F


def sending_may_have_been_sent(apps, schema_editor):
    """A message being sent before this migration may have reached the server: never sent again."""
    Message = apps.get_model("messaging", "Message")
    Message.objects.filter(status="sending").update(handed_at=F("last_attempt_at"))


class Migration(migrations.Migration):
    dependencies = [("messaging", "0001_messages")]

    operations = [
        migrations.AddField(
            model_name="message",
            name="handed_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="message",
            name="recoveries",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.RunPython(sending_may_have_been_sent, migrations.RunPython.noop),
    ]
