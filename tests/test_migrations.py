import pytest
from django.apps import apps
from django.core.management import call_command


@pytest.mark.django_db
def test_every_model_change_has_a_migration():
    # Naming our apps makes makemigrations look at apps that have no migrations package yet, too.
    ours = [config.label for config in apps.get_app_configs() if config.name.startswith("dogcase.")]
    try:
        call_command("makemigrations", *ours, "--check", "--dry-run", verbosity=1)
    except SystemExit as exit_:
        pytest.fail(f"models changed without migrations (makemigrations exited {exit_.code})")
