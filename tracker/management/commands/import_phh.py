"""Import PHH hand histories (.phh / .phhs) into a tournament, with a progress bar."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tracker.core.permissions import Capability, roles_with
from tracker.engine.errors import Refusal
from tracker.interchange.models import ImportStatus
from tracker.interchange.services.imports import phh_import_start
from tracker.leagues.models import Membership
from tracker.tournaments.models import Tournament

BAR = 30


class Command(BaseCommand):
    help = (
        "Import PHH files into a tournament: every hand is checked against the tournament "
        "(stakes, stacks, players) and the stud procedure and recorded as the next hand. "
        "Each file is imported whole or not at all; hands already imported are skipped."
    )

    def add_arguments(self, parser):
        parser.add_argument("tournament", type=int, help="the tournament id")
        parser.add_argument("files", nargs="+", help=".phh / .phhs files")
        parser.add_argument(
            "--user",
            help="record as this user (a scorekeeper or admin of the league); default: "
            "the tournament's creator, else the league's first admin",
        )
        parser.add_argument(
            "--no-progress", action="store_true", help="no progress bar on standard error"
        )

    def handle(self, *args, **options):
        tournament = Tournament.objects.select_related("league").filter(pk=options["tournament"])
        tournament = tournament.first()
        if tournament is None:
            raise CommandError(f"no tournament {options['tournament']}")
        user = self._user(tournament, options.get("user"))
        progress = None if options["no_progress"] else self._bar
        self.stderr.style_func = None  # the bar is plain text
        with ExitStack() as opened:
            files = []
            for name in options["files"]:
                try:  # read in pieces by the import, not here
                    files.append((Path(name).name, opened.enter_context(Path(name).open("rb"))))
                except OSError as exc:
                    raise CommandError(f"cannot read {name}: {exc.strerror}") from exc
            try:
                job = phh_import_start(
                    tournament=tournament,
                    by=user,
                    files=files,
                    source="command",
                    inline=True,
                    progress=progress,
                )
            except Refusal as exc:
                raise CommandError(exc.message) from exc
            finally:
                if progress is not None:
                    self.stderr.write("")
        for f in job.file_list():
            if f.error:
                self.stdout.write(f"{f.name}: not imported: {f.error['message']}")
            else:
                self.stdout.write(f"{f.name}: {f.imported} new, {f.skipped} already imported")
        self.stdout.write(f"import {job.pk} into {tournament.name}: {job.summary}")
        if job.errors:
            failed = sum(1 for f in job.file_list() if f.error)
            if job.status == ImportStatus.FAILED:
                raise CommandError(f"nothing imported: {failed} file(s) failed")
            raise CommandError(f"{failed} file(s) failed (nothing of them was imported)")

    def _bar(self, done: int, total: int) -> None:
        filled = BAR * done // total if total else BAR
        self.stderr.write(
            f"\r[{'#' * filled}{' ' * (BAR - filled)}] {done}/{total} hands", ending=""
        )
        self.stderr.flush()

    def _user(self, tournament: Tournament, username: str | None):
        User = get_user_model()
        if username:
            user = User.objects.filter(username=username).first()
            if user is None:
                raise CommandError(f"no user {username!r}")
            return user
        if tournament.created_by_id:
            return tournament.created_by
        admin = (
            Membership.objects.filter(
                league=tournament.league, role__in=roles_with(Capability.RECORD_HAND)
            )
            .select_related("user")
            .order_by("role", "id")
            .first()
        )
        if admin is None:
            raise CommandError(f"{tournament.league.name} has no admin or scorekeeper: use --user")
        return admin.user
