import json
import os

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from dogcase.demo.passwords import refuse_weak
from dogcase.demo.scale import SeedError, seed_scale


class Command(BaseCommand):
    help = (
        "Build a statewide data set into an empty database: people, premises, dogs and incidents in bulk, and "
        "cases at every stage of both cities' procedures through the legal-act functions; reproducible from "
        "--seed. Then run the sweep (unless --no-sweep) and print the counts as JSON."
    )

    def add_arguments(self, parser):
        parser.add_argument("--dogs", type=int, default=1_000_000)
        parser.add_argument("--incidents", type=int, default=100_000)
        parser.add_argument("--cases", type=int, default=20_000)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--batch", type=int, default=5000, help="rows per bulk insert")
        parser.add_argument(
            "--workers",
            type=int,
            default=1,
            help="processes that play the cases (PostgreSQL); the same cases and stages, in another order",
        )
        parser.add_argument("--no-sweep", action="store_true", help="leave the sweep to the caller")

    def handle(self, *args, **options):
        password = os.getenv("DOGCASE_DEMO_PASSWORD")
        if password and not settings.DEBUG:
            # the demo users it creates (an administrator among them) are real logins outside development
            refuse_weak(password, get_user_model())
        if options["batch"] < 1:
            raise CommandError("--batch: must be 1 or more")
        try:
            report = seed_scale(
                dogs=options["dogs"],
                incidents=options["incidents"],
                cases=options["cases"],
                seed=options["seed"],
                sweep=not options["no_sweep"],
                batch=options["batch"],
                workers=options["workers"],
                out=self.stderr,
            )
        except SeedError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(json.dumps(report.as_dict(), indent=2))
