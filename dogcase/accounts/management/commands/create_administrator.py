"""The first administrator of a deployment (docs/deploy.md): `manage.py create_administrator NAME --city ID`.

The password is asked twice on a terminal, or read from the first line of standard input with
`--password-stdin` (never from the command line, which other users of the machine can read). `--existing`
gives the administrator role and the cities to an account already there (one made with createsuperuser)."""

from __future__ import annotations

import getpass
import sys

from django.core.management.base import BaseCommand, CommandError

from dogcase.accounts.manage import AccountProblem, city_ids, make_administrator


class Command(BaseCommand):
    help = "Create the first administrator (or make an existing account one) for one or more cities."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--city", action="append", default=[], help="a city the administrator serves (repeatable)"
        )
        parser.add_argument("--all-cities", action="store_true", help="every city this deployment serves")
        parser.add_argument("--email", default="")
        parser.add_argument("--first-name", default="")
        parser.add_argument("--last-name", default="")
        parser.add_argument("--existing", action="store_true", help="the account exists: give it the role")
        parser.add_argument(
            "--password-stdin", action="store_true", help="read the password from the first line of stdin"
        )

    def handle(self, *args, **options) -> None:
        cities = city_ids() if options["all_cities"] else options["city"]
        password = None
        if not options["existing"]:
            password = self._password(options["password_stdin"])
        try:
            user = make_administrator(
                username=options["username"],
                password=password,
                cities=cities,
                email=options["email"],
                first_name=options["first_name"],
                last_name=options["last_name"],
                existing=options["existing"],
            )
        except AccountProblem as problem:
            raise CommandError(f"{problem.field}: {problem.message}") from None
        self.stdout.write(
            f"{user.username} is the administrator of {', '.join(sorted(cities))}: sign in at /accounts/login/ "
            "and add the other staff on the Users page."
        )

    def _password(self, from_stdin: bool) -> str:
        if from_stdin:
            line = sys.stdin.readline().rstrip("\n")
            if not line:
                raise CommandError("password: the first line of standard input is empty")
            return line
        if not sys.stdin.isatty():
            raise CommandError("password: no terminal to ask on; use --password-stdin")
        first = getpass.getpass("Password: ")
        if first != getpass.getpass("Password (again): "):
            raise CommandError("password: the two passwords differ")
        return first
