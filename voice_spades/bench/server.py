"""`voice-spades bench server`: simulated clients on loopback playing real tables.

Starts one or more ``voice-spades serve`` processes on 127.0.0.1 (sharing a SQLite
file in a temporary folder when there is one process, or a PostgreSQL database: a
private server from Debian's package, or the one ``--database`` names), then plays
``--clients / --players`` tables with simulated clients
(:mod:`voice_spades.bench.server_clients`), and prints the latency from an action
sent to its event delivered to every viewer (p50, p99), messages per second, lost and
duplicated messages, and the servers' CPU and memory per table (from ``/proc``, so on
Linux). Every wait is bounded: a table that stalls for 30 s counts as failed, and the
whole run ends after ``--timeout`` seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from voice_spades.bench.server_clients import TableRun, percentile, play_table
from voice_spades.engine import options_to_dict, profile
from voice_spades.server.limits import MOST_CONNECTIONS_PER_ADDRESS
from voice_spades.server.store_postgres import is_postgres_address

START_TIMEOUT = 30.0
RAMP_BATCH = 25
"""Tables whose clients connect at once; the next batch waits for their welcomes."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 free at this moment."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_listening(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server ended at start-up: {log.read_text()[-800:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"the server did not listen within {START_TIMEOUT:g} s")


@contextmanager
def servers(count: int, database: str, folder: Path) -> Iterator[list[tuple[int, int]]]:
    """``count`` server processes on ``database``; yields (pid, port) of each."""
    started: list[tuple[subprocess.Popen[bytes], int]] = []
    try:
        for number in range(count):
            port = free_port()
            log = folder / f"server{number}.log"
            with log.open("wb") as out:
                process = subprocess.Popen(
                    # Every simulated player comes from 127.0.0.1: no cap per address.
                    [sys.executable, "-m", "voice_spades", "serve", "--host", "127.0.0.1",
                     "--port", str(port), "--database", database, "--bot-delay", "0",
                     "--max-connections", str(MOST_CONNECTIONS_PER_ADDRESS)],
                    stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            started.append((process, port))
            _wait_listening(port, process, log)
        yield [(process.pid, port) for process, port in started]
    finally:
        for process, _ in started:
            process.terminate()
        for process, _ in started:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


def cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds process ``pid`` has used (Linux ``/proc``)."""
    if sys.platform == "win32":
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    ticks: int = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def load_average() -> list[float]:
    """The machine's load average over 1, 5 and 15 minutes (none on Windows): the
    figures of a shared machine mean little without it."""
    if sys.platform == "win32":
        return []
    return [round(x, 2) for x in os.getloadavg()]


def rss_bytes(pid: int) -> int:
    """Resident memory of process ``pid`` (Linux ``/proc``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


async def run_tables(addresses: list[str], args: argparse.Namespace,
                     rules: dict[str, Any]) -> list[TableRun]:
    """Play every table; tables start in batches of :data:`RAMP_BATCH`."""
    tables = [TableRun(n, args.players, args.hands, args.think, rules, addresses)
              for n in range(args.clients // args.players)]
    rng = random.Random(args.seed)
    deadline = time.monotonic() + args.timeout
    tasks = []
    for start in range(0, len(tables), RAMP_BATCH):
        batch = tables[start:start + RAMP_BATCH]
        tasks += [asyncio.create_task(play_table(t, rng.getrandbits(32))) for t in batch]
        await asyncio.wait([asyncio.create_task(t.seated.wait()) for t in batch],
                           timeout=START_TIMEOUT)
    _, late = await asyncio.wait(tasks, timeout=max(0.0, deadline - time.monotonic()))
    for task in late:
        task.cancel()
    await asyncio.gather(*late, return_exceptions=True)
    for table in tables:
        if not table.finished.is_set():
            table.errors.append(f"not finished within --timeout {args.timeout:g} s")
    return tables


def measure(args: argparse.Namespace, database: str, folder: Path) -> dict[str, Any]:
    """Start the servers, play, and gather the figures (see module doc)."""
    rules = options_to_dict(profile(args.rules))
    with servers(args.processes, database, folder) as running:
        pids = [pid for pid, _ in running]
        addresses = [f"ws://127.0.0.1:{port}/ws" for _, port in running]
        rss_before = sum(rss_bytes(pid) for pid in pids)
        cpu_before = sum(cpu_seconds(pid) for pid in pids)
        own_before = time.process_time()
        started = time.perf_counter()
        tables = asyncio.run(run_tables(addresses, args, rules))
        wall = time.perf_counter() - started
        cpu = sum(cpu_seconds(pid) for pid in pids) - cpu_before
        rss = sum(rss_bytes(pid) for pid in pids)
        own_cpu = time.process_time() - own_before
    latencies = [x for t in tables for x in t.latencies()]
    messages = sum(v.messages for t in tables for v in t.viewers)
    count = max(1, len(tables))
    return {
        "clients": len(tables) * args.players, "tables": len(tables),
        "processes": args.processes,
        "store": "postgresql" if is_postgres_address(database) else "sqlite",
        "think_s": args.think, "hands": args.hands, "wall_s": round(wall, 2),
        "actions": sum(len(t.sent) for t in tables), "timed_actions": len(latencies),
        "p50_ms": round(percentile(latencies, 0.50) * 1000, 2),
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 2),
        "max_ms": round(max(latencies, default=0.0) * 1000, 2),
        "messages": messages, "messages_per_s": round(messages / wall),
        "lost": sum(t.lost() for t in tables),
        "duplicated": sum(v.duplicates for t in tables for v in t.viewers),
        "failed_tables": sum(1 for t in tables if t.errors),
        "first_errors": [e for t in tables for e in t.errors][:3],
        "server_cpu_percent": round(100 * cpu / wall, 1),
        "server_cpu_percent_per_table": round(100 * cpu / wall / count, 3),
        "server_rss_mb": round(rss / 2**20, 1),
        "server_rss_kb_per_table": round((rss - rss_before) / 1024 / count, 1),
        "bench_clients_cpu_percent": round(100 * own_cpu / wall, 1),
        "load_average": load_average(),
    }


def _print(result: dict[str, Any]) -> None:
    r = result
    print(f"{r['clients']} clients, {r['tables']} tables, {r['processes']} server "
          f"process(es) on {r['store']}; think {r['think_s']:g} s, {r['hands']} hand(s), "
          f"{r['wall_s']:g} s")
    print(f"action to every viewer: p50 {r['p50_ms']} ms, p99 {r['p99_ms']} ms, "
          f"max {r['max_ms']} ms over {r['timed_actions']} actions")
    print(f"messages: {r['messages']} ({r['messages_per_s']}/s), lost {r['lost']}, "
          f"duplicated {r['duplicated']}; failed tables {r['failed_tables']}")
    for error in r["first_errors"]:
        print(f"  {error}")
    print(f"servers: CPU {r['server_cpu_percent']}% of a core "
          f"({r['server_cpu_percent_per_table']}% per table), memory "
          f"{r['server_rss_mb']} MB ({r['server_rss_kb_per_table']} kB per table); "
          f"bench clients CPU {r['bench_clients_cpu_percent']}%")
    print("machine load average (1, 5, 15 min): "
          f"{', '.join(str(x) for x in r['load_average'])} on {os.cpu_count()} cores")


def _argument_problem(args: argparse.Namespace) -> str | None:
    if args.players < 2 or args.clients < args.players:
        return "--clients must be at least --players, and --players at least 2."
    if args.processes < 1 or args.hands < 1 or args.think < 0 or args.timeout <= 0:
        return "--processes and --hands must be at least 1, --think 0 or more."
    if args.processes > 1 and args.database and not is_postgres_address(args.database):
        return "several processes share tables only through PostgreSQL (--database)."
    return None


@contextmanager
def _unwinding_on_terminate() -> Iterator[None]:
    """While open, SIGTERM unwinds like Ctrl+C, so the servers and a private
    PostgreSQL started for the run are stopped and removed, not left running
    (Python's default SIGTERM skips every ``finally``)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM,
                           lambda _number, _frame: sys.exit(128 + signal.SIGTERM))
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def main(argv: list[str] | None = None) -> int:
    """Run the server benchmark and print its figures."""
    parser = argparse.ArgumentParser(prog="voice-spades bench server")
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--players", type=int, default=4, help="seats per table")
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--processes", type=int, default=1,
                        help="server processes (more than 1: PostgreSQL)")
    parser.add_argument("--database", default="",
                        help="postgresql://... (default: SQLite for 1 process, else a "
                             "private PostgreSQL started for the run)")
    # 1 s: the pace of the server's own bots (--bot-delay's default), a brisk player's.
    parser.add_argument("--think", type=float, default=1.0,
                        help="seconds a client waits before acting (0.5 to 1.5 times)")
    parser.add_argument("--hands", type=int, default=1, help="hands each table plays")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds for the run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    problem = _argument_problem(args)
    if problem is not None:
        print(f"voice-spades bench server: {problem}", file=sys.stderr)
        return 2
    with ExitStack() as stack:
        stack.enter_context(_unwinding_on_terminate())
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(
            prefix="voice-spades-bench-")))
        database = args.database
        if not database and args.processes > 1:
            from voice_spades.bench.private_postgres import PrivatePostgres, postgres_missing

            missing = postgres_missing()
            if missing is not None:
                print(f"voice-spades bench server: {missing}", file=sys.stderr)
                return 2
            database = stack.enter_context(PrivatePostgres()).dsn
        elif not database:
            database = str(folder / "tables.sqlite3")
        result = measure(args, database, folder)
    if args.json:
        print(json.dumps(result))
    else:
        _print(result)
    return 0 if result["failed_tables"] == 0 and result["lost"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
