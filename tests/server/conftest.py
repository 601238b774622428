"""Fixtures the server tests share."""

from tests.server.postgres_fixture import pg_dsn_fixture, postgres_fixture
from tests.server.served import served_fixture

__all__ = ["pg_dsn_fixture", "postgres_fixture", "served_fixture"]
