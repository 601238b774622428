"""A PostgreSQL server of our own, for tests and ``bench server``.

:class:`PrivatePostgres` makes a database cluster in a fresh temporary folder with
Debian's ``postgresql`` package (``initdb``, then ``pg_ctl start``), listening only on
a unix socket in that folder (``listen_addresses=''``: no TCP port, nothing reachable
from another machine), and removes it all on :meth:`close`. ``initdb`` refuses to run
as root, so as root the cluster belongs to the ``postgres`` user (``runuser``), as the
package's own clusters do; as anyone else it belongs to that user. The folder is made
with :func:`tempfile.mkdtemp` under the system's temporary folder rather than a test's
``tmp_path``, whose parents (mode 0700, root's) the ``postgres`` user could not enter.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from types import TracebackType
from urllib.parse import quote

BIN_ROOT = Path("/usr/lib/postgresql")
START_TIMEOUT = 30
"""Seconds ``pg_ctl start -w`` may wait (it took 0.14 s here)."""
PORT = 5432
"""Only names the socket file: the socket lives in the private folder, so no clash."""


def postgres_bin() -> Path | None:
    """The newest installed server's bin folder (``/usr/lib/postgresql/15/bin``), or None."""
    if not BIN_ROOT.is_dir():
        return None
    found = [p / "bin" for p in BIN_ROOT.iterdir() if (p / "bin" / "initdb").exists()]
    if not found:
        return None
    return max(found, key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0)


def _as_root() -> bool:
    if sys.platform == "win32":
        return False
    return os.geteuid() == 0


def postgres_missing() -> str | None:
    """Why a private server cannot start here (a sentence for a test's skip), or None."""
    if postgres_bin() is None:
        return "PostgreSQL is not installed (Debian package postgresql)"
    if _as_root() and shutil.which("runuser") is None:
        return "running as root needs runuser to start PostgreSQL as the postgres user"
    return None


class PrivatePostgres:
    """A running private PostgreSQL cluster (see module doc); ``dsn`` reaches it."""

    def __init__(self, *, durable: bool = True) -> None:
        """Start it. ``durable=False`` turns off fsync (faster; a test that never
        crashes the machine loses nothing by it); the default keeps PostgreSQL's own."""
        bin_dir = postgres_bin()
        if bin_dir is None:
            raise RuntimeError(postgres_missing())
        self._bin = bin_dir
        self.folder = Path(tempfile.mkdtemp(prefix="voice-spades-pg-"))
        self._prefix: list[str] = []
        self.user = "postgres"
        if _as_root():
            shutil.chown(self.folder, user="postgres")
            self._prefix = ["runuser", "-u", "postgres", "--"]
        self.data = self.folder / "data"
        options = f"-k {self.folder} -c listen_addresses='' -p {PORT} -c max_connections=200"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        try:
            # --no-sync: initdb's own fsync of the new cluster took 4 of its 7 s here;
            # a cluster that dies with its machine loses nothing a test or bench needs.
            self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", self.user,
                      "-E", "UTF8", "--no-locale", "--no-sync")
            self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l",
                      str(self.folder / "server.log"), "-w", "-t", str(START_TIMEOUT),
                      "start")
        except BaseException:
            self.close()
            raise

    @property
    def dsn(self) -> str:
        """The connection address, ``postgresql://postgres@/postgres?host=FOLDER&port=N``."""
        return (f"postgresql://{self.user}@/postgres?host={quote(str(self.folder), safe='')}"
                f"&port={PORT}")

    def _run(self, program: str, *args: str) -> None:
        done = subprocess.run([*self._prefix, str(self._bin / program), *args],
                              capture_output=True, text=True, timeout=START_TIMEOUT + 30,
                              cwd=self.folder, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{program} failed ({done.returncode}): "
                               f"{(done.stderr or done.stdout).strip()[-600:]}")

    def close(self) -> None:
        """Stop the server (fast shutdown) and remove its folder."""
        if (self.data / "postmaster.pid").exists():
            try:
                self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
            except (RuntimeError, subprocess.TimeoutExpired):
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> PrivatePostgres:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
