# The cut-over to chains per case and city. The events written so far stay as they are, in the chain
# "global" under the rule they were hashed by (unkeyed SHA-256), at the place their number gives them; a keyed
# event in the chain "audit" seals that chain's length and last hash, so that rewriting an old event and
# recomputing the unkeyed hashes after it is found (dogcase.cases.audit.verify_chains).

from django.db import migrations
from django.db.models import F
from django.utils import timezone


def seal(apps, schema_editor):
    from dogcase.cases.audit import LEGACY_CHAIN, seal_legacy_chain

    Event = apps.get_model("cases", "Event")
    ChainHead = apps.get_model("cases", "ChainHead")
    Event.objects.filter(chain=LEGACY_CHAIN, chain_seq__isnull=True).update(chain_seq=F("seq"))
    seal_legacy_chain(Event, ChainHead, at=timezone.now())


def unseal(apps, schema_editor):
    from dogcase.cases.audit import AUDIT_CHAIN, SEAL_ACT

    Event = apps.get_model("cases", "Event")
    ChainHead = apps.get_model("cases", "ChainHead")
    Event.objects.filter(chain=AUDIT_CHAIN, act=SEAL_ACT).delete()
    ChainHead.objects.filter(chain=AUDIT_CHAIN).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("cases", "0005_chain_fields"),
    ]

    operations = [migrations.RunPython(seal, unseal)]
