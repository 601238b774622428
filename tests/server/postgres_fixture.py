"""A private PostgreSQL server for the tests (Debian's ``postgresql`` package, started in a
temporary folder: :class:`~voice_spades.bench.private_postgres.PrivatePostgres`), one
per test run, and a fresh database in it for each test. They skip, saying why, only
where the package is missing (``scripts/bootstrap.sh --test`` installs it)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest

from voice_spades.bench.private_postgres import PrivatePostgres, postgres_missing

_numbers = itertools.count(1)


@pytest.fixture(scope="session", name="postgres")
def postgres_fixture() -> Iterator[PrivatePostgres]:
    missing = postgres_missing()
    if missing is not None:
        pytest.skip(missing)
    # No fsync: nothing here crashes the machine, and each CREATE DATABASE stays fast.
    with PrivatePostgres(durable=False) as server:
        yield server


def database_address(server: PrivatePostgres, name: str) -> str:
    """``server``'s address with the database ``name`` in place of ``postgres``."""
    parts = urlsplit(server.dsn)
    return urlunsplit(parts._replace(path=f"/{name}"))


@pytest.fixture(name="pg_dsn")
def pg_dsn_fixture(postgres: PrivatePostgres) -> str:
    """The address of an empty database of this test's own."""
    import psycopg

    name = f"test_{next(_numbers)}"
    with psycopg.connect(postgres.dsn, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return database_address(postgres, name)
