"""Statistics at scale against PostgreSQL: a league of up to 1,000,000 settled hands.

    .venv/bin/python bench/scale.py [--hands 1000000] [--sizes 10000,100000,1000000] [--keep]

Creates its own database (``homegame_agg_bench``, or BENCH_DB, on BENCH_PG, default
postgres://postgres@127.0.0.1:5432). First a few template nights are played through the
services (record, settle, facts with all-in equities) in a league of their own; then the
bench league -- twelve players, four a night, four nights a day -- is bulk-loaded with
PostgreSQL COPY, night after night copied from the templates: the tournaments (finished,
with their final standings), seats, hands and hand seats with the templates' chips and
facts (a copied hand keeps its template's entry JSON, which no timed page reads; no
ledger rows are written) and the running totals: the statistics' summed from the template seats' tallies, the
league table's (StandingTally) from the template nights' final standings. At the first
size ``rebuild_stats`` recomputes both from the seats and the final standings (timed, and
checked equal to the bulk-loaded ones). At each size these pages are timed (median of 7
requests through Django's test client, templates and middleware included; bench/_common.py):

* the league table (standings with points): the current season (the default), the first
  year (2012, a full season of 1,464 nights) and all time (``?season=all``); its CSV and
  the standings endpoint (all time); the league page (the current season),
* the league statistics page (every player side by side: running totals), the current
  season (the default) and all time,
* the player statistics page of the player with the most hands (every statistic, two
  charts, the latest all-ins),
* the player statistics endpoint of the API,

with their query counts. Against them, measured in the same run at each size, the peers:
the league statistics summed over every hand seat, as they were before the running
totals (``stats_table(settled_seats(league=...))``, the definition in
tests/support/definitions.py); and the league standings of the current season, 2012 and all
time read from the stored totals (``league_table``) against the same standings counted night
by night from every counted final standing (``league_standings_definition``, the definition
the tests hold the totals to, checked equal). The growth per page is printed from the
smallest size to the largest. The database is dropped at the end unless ``--keep``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import time
from collections import Counter

from _common import BenchDatabase, measure, median_ms

DB = BenchDatabase("homegame_agg_bench")
NIGHTS_PER_DAY = 4
FIRST_DAY = dt.date(2012, 1, 2)
STARTING_CHIPS = 5000


class Templates:
    """Nights played through the services, to be copied."""

    def __init__(self, nights: list[dict]):
        self.nights = nights


def play_templates(count: int, hands: int) -> Templates:
    from django.db import transaction

    from tests.factories import make_user
    from tests.stats.seed import play
    from tracker.hands.models import Hand, HandSeat
    from tracker.leagues.services import league_create, player_create
    from tracker.tournaments.models import FinalStanding, Tournament, TournamentStatus
    from tracker.tournaments.services import tournament_create

    user = make_user("templates")
    league = league_create(name="Templates", slug="templates", created_by=user)
    roster = [player_create(league=league, name=f"T{i}", by=user) for i in range(4)]
    rng = random.Random(2026)
    nights = []
    for k in range(count):
        with transaction.atomic():
            t = tournament_create(
                league=league,
                name=f"Template {k}",
                player_ids=[p.id for p in roster],
                by=user,
                starting_chips=STARTING_CHIPS,
            )
        with transaction.atomic():
            play(t, user, rng, hands=hands, fold_p=0.3, raise_choices=(0.05, 0.15, 0.3))
        t = Tournament.objects.get(pk=t.pk)
        if t.status != TournamentStatus.FINISHED:
            t.status = TournamentStatus.FINISHED
            t.save(update_fields=["status"])
            from tracker.tournaments.services import final_standings_write

            final_standings_write(tournament=t)
        order = list(t.seats.order_by("number").values_list("player_id", flat=True))
        night_hands = list(Hand.objects.filter(tournament=t).order_by("number"))
        seats = {}
        for s in HandSeat.objects.filter(hand__tournament=t):
            seats.setdefault(s.hand_id, []).append(s)
        standings = list(
            FinalStanding.objects.filter(tournament=t).values_list(
                "player_id", "place", "chips", "out_hand"
            )
        )
        nights.append(
            {"order": order, "hands": night_hands, "seats": seats, "standings": standings}
        )
    return Templates(nights)


def _json(value):
    return None if value is None else json.dumps(value)


def _text(value) -> str:
    """One value in COPY's text format."""
    if value is None:
        return "\\N"
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str):
        return (
            value.replace("\\", "\\\\")
            .replace("\t", "\\t")
            .replace("\n", "\\n")
            .replace("\r", "\\r")
        )
    return str(value)


def _vector(counters: dict) -> list:
    from tracker.stats.tally import FLOAT_COUNTERS, INT_COUNTERS

    return [counters[k] for k in (*INT_COUNTERS, *FLOAT_COUNTERS)]


def _add(into: list | None, vector: list, biggest: int) -> list:
    if into is None:
        return [*vector, biggest]
    for i, v in enumerate(vector):
        into[i] += v
    into[-1] = max(into[-1], biggest)
    return into


class Loader:
    """COPY nights into the bench league, in date order, until a number of hands; the
    running totals are summed in Python from the template seats' tallies and copied too."""

    def __init__(self, league, roster, templates: Templates, user):
        from django.db import connection

        from tracker.hands.models import Hand, HandSeat
        from tracker.stats.tally import seat_tally

        self.league = league
        self.roster = roster
        self.user = user
        self.nights = 0
        self.hands = 0
        self.months: dict[tuple, list] = {}
        self.standings: dict[tuple, list] = {}  # the league table's running totals
        self.hand_fields = list(Hand._meta.concrete_fields)
        self.seat_fields = list(HandSeat._meta.concrete_fields)
        names = [f.attname for f in self.hand_fields]
        self.h_id, self.h_t = names.index("id"), names.index("tournament_id")
        self.h_pos, self.h_net = names.index("positions"), names.index("projected_net")
        snames = [f.attname for f in self.seat_fields]
        self.s_id, self.s_hand, self.s_player = (
            snames.index("id"),
            snames.index("hand_id"),
            snames.index("player_id"),
        )
        # Each template hand once: its row (JSON dumped), its seats' rows and tallies.
        self.templates = []
        for night in templates.nights:
            hands = []
            for h in night["hands"]:
                row = []
                for f in self.hand_fields:
                    value = getattr(h, f.attname)
                    if f.attname == "engine_reading":
                        value = None  # large, and read by no timed page
                    elif f.attname == "recorded_by_id":
                        value = user.pk
                    elif f.get_internal_type() == "JSONField":
                        value = _json(value)
                    row.append(_text(value))
                seats = []
                for seat in night["seats"][h.pk]:
                    srow = [
                        _text(
                            _json(getattr(seat, f.attname))
                            if f.get_internal_type() == "JSONField"
                            else getattr(seat, f.attname)
                        )
                        for f in self.seat_fields
                    ]
                    tally = seat_tally(facts=seat.facts, won=seat.won, put_in=seat.contributed)
                    seats.append((srow, seat.player_id, _vector(tally), seat.won))
                hands.append((row, h.positions, h.projected_net, h.variant, seats))
            self.templates.append({**night, "rows": hands})
        with connection.cursor() as c:
            c.execute("SELECT coalesce(max(id), 0) FROM tracker_hand")
            self.next_hand = c.fetchone()[0] + 1
            c.execute("SELECT coalesce(max(id), 0) FROM tracker_handseat")
            self.next_seat = c.fetchone()[0] + 1
            c.execute("SELECT coalesce(max(id), 0) FROM tracker_tournament")
            self.next_tournament = c.fetchone()[0] + 1

    def load_to(self, target: int) -> None:
        from django.db import connection
        from django.utils import timezone

        from tracker.stats.tally import FLOAT_COUNTERS, INT_COUNTERS, MAX_COUNTER

        now = timezone.now()
        tournaments, seats_rows, standings = [], [], []
        hands_rows, hand_seat_rows, night_tallies = [], [], []
        while self.hands < target:
            k = self.nights
            template = self.templates[k % len(self.templates)]
            players = [self.roster[(k * 5 + j) % len(self.roster)].pk for j in range(4)]
            remap = dict(zip(template["order"], players, strict=True))
            tid = self.next_tournament
            self.next_tournament += 1
            day = FIRST_DAY + dt.timedelta(days=k // NIGHTS_PER_DAY)
            month = day.replace(day=1)
            tournaments.append(
                (
                    tid,
                    self.league.pk,
                    f"Night {k + 1}",
                    day,
                    now,
                    self.user.pk,
                    len(template["standings"]),  # entrants: the night's players (4)
                )
            )
            seats_rows.extend((tid, pid, n) for n, pid in enumerate(players))
            standings.extend(
                (tid, remap[pid], place, chips, out)
                for pid, place, chips, out in template["standings"]
            )
            sharing = Counter(place for _, place, _, _ in template["standings"])
            entrants = len(template["standings"])
            for pid, place, chips, _ in template["standings"]:
                key = (month, remap[pid], place, entrants, sharing[place])
                cell = self.standings.setdefault(key, [0, 0])
                cell[0] += 1
                cell[1] += chips - STARTING_CHIPS
            cells: dict[tuple, list] = {}
            for row, positions, net, variant, seats in template["rows"]:
                if self.hands >= target:
                    break
                hid = self.next_hand
                self.next_hand += 1
                row = list(row)
                row[self.h_id], row[self.h_t] = str(hid), str(tid)
                row[self.h_pos] = json.dumps([remap[p] for p in positions])
                row[self.h_net] = _text(json.dumps({str(remap[int(p)]): v for p, v in net.items()}))
                hands_rows.append("\t".join(row))
                for srow, pid, vector, won in seats:
                    srow = list(srow)
                    srow[self.s_id], srow[self.s_hand] = str(self.next_seat), str(hid)
                    srow[self.s_player] = str(remap[pid])
                    self.next_seat += 1
                    hand_seat_rows.append("\t".join(srow))
                    key = (remap[pid], variant)
                    cells[key] = _add(cells.get(key), vector, won)
                self.hands += 1
            for (pid, variant), vector in cells.items():
                night_tallies.append((pid, tid, variant, *vector))
                mkey = (pid, variant, month)
                self.months[mkey] = _add(self.months.get(mkey), vector[:-1], vector[-1])
            self.nights += 1
        counters = ", ".join(f'"{c}"' for c in (*INT_COUNTERS, *FLOAT_COUNTERS, MAX_COUNTER))
        raw = connection.connection
        with raw.cursor() as cur:
            self._copy(
                cur,
                "tracker_tournament",
                "id, league_id, name, date, created_at, created_by_id, entrants",
                tournaments,
                extra="starting_chips, hands_per_level, hand_limit, stakes_schedule, "
                "default_variant, default_options, status, counts_toward_standings, "
                "first_dealer_seat, seats_drawn, settle_queued",
                extra_values=(
                    *(
                        STARTING_CHIPS,
                        5,
                        50,
                        "[[4, 10, 20, 40]]",
                        "",
                        "{}",
                        "finished",
                        True,
                        0,
                        False,
                        False,
                    ),
                ),
            )
            self._copy(cur, "tracker_seat", "tournament_id, player_id, number", seats_rows)
            self._copy(
                cur,
                "tracker_finalstanding",
                "tournament_id, player_id, place, chips, out_hand",
                standings,
            )
            self._copy_text(
                cur, "tracker_hand", ", ".join(f.column for f in self.hand_fields), hands_rows
            )
            self._copy_text(
                cur,
                "tracker_handseat",
                ", ".join(f.column for f in self.seat_fields),
                hand_seat_rows,
            )
            self._copy(
                cur,
                "tracker_tournamenttally",
                f"player_id, tournament_id, variant, {counters}",
                night_tallies,
            )
            cur.execute("DELETE FROM tracker_monthtally WHERE league_id = %s", [self.league.pk])
            self._copy(
                cur,
                "tracker_monthtally",
                f"player_id, variant, month, {counters}, league_id",
                [(*key, *vector, self.league.pk) for key, vector in self.months.items()],
            )
            cur.execute("DELETE FROM tracker_standingtally WHERE league_id = %s", [self.league.pk])
            self._copy(
                cur,
                "tracker_standingtally",
                "month, player_id, place, entrants, sharing, nights, net_chips, league_id",
                [(*key, *cell, self.league.pk) for key, cell in self.standings.items()],
            )
            for table in ("tracker_tournament", "tracker_hand", "tracker_handseat"):
                cur.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"(SELECT max(id) FROM {table}))"
                )
        raw.commit()
        with raw.cursor() as cur:
            cur.execute("ANALYZE")
        raw.commit()

    @staticmethod
    def _copy_text(cur, table, columns, lines):
        with cur.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
            for k in range(0, len(lines), 20000):
                copy.write("\n".join(lines[k : k + 20000]) + "\n")

    @staticmethod
    def _copy(cur, table, columns, rows, extra="", extra_values=()):
        cols = columns + (", " + extra if extra else "")
        with cur.copy(f"COPY {table} ({cols}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row((*row, *extra_values))


def tallies(league) -> dict:
    from tracker.stats.models import MonthTally, TournamentTally
    from tracker.stats.tally import FLOAT_COUNTERS, INT_COUNTERS, MAX_COUNTER
    from tracker.tournaments.models import StandingTally

    fields = (*INT_COUNTERS, *FLOAT_COUNTERS, MAX_COUNTER)
    out = {}
    key = ("month", "player_id", "place", "entrants", "sharing")
    for r in StandingTally.objects.filter(league=league).values(*key, "nights", "net_chips"):
        out[("s", *(r.pop(k) for k in key))] = r
    for r in MonthTally.objects.filter(league=league).values(
        "player_id", "variant", "month", *fields
    ):
        out[("m", r.pop("player_id"), r.pop("variant"), r.pop("month"))] = r
    for r in TournamentTally.objects.filter(tournament__league=league).values(
        "player_id", "variant", "tournament_id", *fields
    ):
        out[("t", r.pop("player_id"), r.pop("variant"), r.pop("tournament_id"))] = r
    return out


def same_tallies(a: dict, b: dict) -> bool:
    import math

    if set(a) != set(b):
        return False
    for key, row in a.items():
        for name, value in row.items():
            if not math.isclose(value, b[key][name], rel_tol=1e-9, abs_tol=1e-6):
                return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1_000_000, help="the largest size")
    parser.add_argument(
        "--sizes", default="", help="comma-separated sizes to time (default 10k, 100k, 1M)"
    )
    parser.add_argument("--templates", type=int, default=6, help="template nights played")
    parser.add_argument("--keep", action="store_true", help="keep the database")
    args = parser.parse_args()
    sizes = sorted(
        {int(s) for s in args.sizes.split(",") if s}
        or {n for n in (10_000, 100_000, 1_000_000) if n <= args.hands} | {args.hands}
    )

    print(f"database {DB.url}", flush=True)
    DB.reset()
    DB.setup_django()
    from django.db import connection
    from django.db.models import Count
    from django.test import Client

    from tests.factories import make_user
    from tests.support.definitions import league_standings_definition, stats_table
    from tracker.hands.models import HandSeat
    from tracker.hands.selectors import facts as facts_module
    from tracker.leagues.models import Player
    from tracker.leagues.selectors.seasons import league_season
    from tracker.leagues.selectors.table import league_table
    from tracker.leagues.services import league_create, player_create
    from tracker.stats import selectors as sel
    from tracker.stats import services as stats_service
    from tracker.stats.models import MonthTally, TournamentTally
    from tracker.tournaments.models import FinalStanding, StandingTally
    from tracker.tournaments.services import standings_tallies_rebuild

    facts_module.EQUITY_SAMPLES = 2000
    start = time.perf_counter()
    templates = play_templates(args.templates, 50)
    n_template = sum(len(n["hands"]) for n in templates.nights)
    print(
        f"played {n_template} template hands through the services in "
        f"{time.perf_counter() - start:.0f} s",
        flush=True,
    )
    connection.set_autocommit(False)
    user = make_user("bench")
    league = league_create(name="Bench league", slug="bench", created_by=user)
    roster = [player_create(league=league, name=f"Player {i + 1}", by=user) for i in range(12)]
    connection.commit()
    connection.set_autocommit(True)
    loader = Loader(league, roster, templates, user)
    client = Client()
    results = []
    for size in sizes:
        t0 = time.perf_counter()
        connection.set_autocommit(False)
        loader.load_to(size)
        connection.set_autocommit(True)
        load_s = time.perf_counter() - t0
        line = f"\n{loader.hands:,} hands, {loader.nights:,} nights: loaded in {load_s:.0f} s"
        if size == sizes[0]:
            loaded = tallies(league)
            t0 = time.perf_counter()
            months, nights = stats_service.stats_tallies_rebuild(league=league)
            places = standings_tallies_rebuild(league=league)
            rebuild_s = time.perf_counter() - t0
            same = same_tallies(loaded, tallies(league))
            line += (
                f"; rebuild_stats over them took {rebuild_s:.1f} s ({months:,} month rows, "
                f"{nights:,} tournament rows, {places:,} standings rows) and "
                f"{'equals' if same else 'DIFFERS FROM'} the bulk-loaded running totals"
            )
        print(line, flush=True)
        top = (
            Player.objects.filter(league=league)
            .annotate(n=Count("hand_seats"))
            .order_by("-n", "pk")
            .first()
        )
        urls = {
            "league table": f"/leagues/{league.slug}/table/",
            "league table, 2012": f"/leagues/{league.slug}/table/?season=2012",
            "league table, all time": f"/leagues/{league.slug}/table/?season=all",
            "league table CSV, all time": f"/leagues/{league.slug}/table.csv?season=all",
            "standings API, all time": (
                f"/api/v1/analytics/leagues/{league.slug}/standings/?season=all"
            ),
            "league page": f"/leagues/{league.slug}/",
            "league statistics": f"/leagues/{league.slug}/stats/",
            "league statistics, all time": f"/leagues/{league.slug}/stats/?season=all",
            "player statistics page": f"/players/{top.pk}/stats/",
            "player statistics API": f"/api/v1/analytics/players/{top.pk}/stats/",
        }
        for label, url in urls.items():
            ms, queries, _ = measure(client, url)
            results.append((size, label, ms, queries))
            print(f"  {label:<28} {ms:8.1f} ms  {queries:>3} queries", flush=True)
        peer = median_ms(
            lambda: stats_table(sel.settled_seats(league=league)),
            repeat=3 if size > 200_000 else 7,
        )
        ours = median_ms(lambda: sel.tally_table(sel.month_tallies(league=league)))
        results.append((size, "peer: sums over the seats", peer, 2))
        results.append((size, "ours: sums over the totals", ours, 1))
        print(
            f"  league statistics, the selector alone: ours {ours:.1f} ms, "
            f"the sum over {HandSeat.objects.filter(hand__tournament__league=league).count():,} "
            f"seats {peer:.1f} ms (x{peer / ours:.0f})",
            flush=True,
        )
        for name, key in (("current season", None), ("2012", "2012"), ("all time", "all")):
            season = league_season(league, key)
            mine = league_table(league, season).rows
            theirs = league_standings_definition(league, season)
            assert mine == theirs, f"the stored totals differ from the final standings ({name})"
            peer_table = median_ms(lambda s=season: league_standings_definition(league, s))
            ours_table = median_ms(lambda s=season: league_table(league, s))
            results.append((size, f"peer: standings {name}", peer_table, 1))
            results.append((size, f"ours: standings {name}", ours_table, 1))
            print(
                f"  standings {name}, the selector alone: ours (stored totals) "
                f"{ours_table:.1f} ms, night by night from the final standings {peer_table:.1f} ms "
                f"(x{peer_table / ours_table:.1f})",
                flush=True,
            )
        print(
            f"  the league: {FinalStanding.objects.filter(tournament__league=league).count():,} "
            f"final standings, {StandingTally.objects.filter(league=league).count():,} "
            "standings rows",
            flush=True,
        )
        print(
            f"  top player: {top.n:,} hands, "
            f"{MonthTally.objects.filter(player=top).count()} month rows, "
            f"{TournamentTally.objects.filter(player=top).count()} tournament rows",
            flush=True,
        )

    print("\nMedian ms per page and size (PostgreSQL, Django test client):")
    labels = []
    for _, label, _, _ in results:
        if label not in labels:
            labels.append(label)
    head = "".join(f"{s:>12,}" for s in sizes)
    print(f"  {'page':<32}{head}   growth {sizes[0]:,} -> {sizes[-1]:,}")
    for label in labels:
        cells = {s: ms for s, lab, ms, _ in results if lab == label}
        line = "".join(f"{cells.get(s, float('nan')):12.1f}" for s in sizes)
        growth = cells[sizes[-1]] / cells[sizes[0]] if cells.get(sizes[0]) else float("nan")
        print(f"  {label:<32}{line}   x{growth:.2f}")
    if args.keep:
        print(f"kept database {DB.name}")
    else:
        DB.drop()
        print(f"dropped database {DB.name}")


if __name__ == "__main__":
    main()
