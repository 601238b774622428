"""A private PulseAudio (the clocked virtual sound card) and speech-dispatcher daemon for
the tests of one module (import ``speechd_fixture`` to use the fixture ``speechd``,
``speechd_address_fixture`` for ``speechd_address``); they skip, saying why, only
where the packages are missing (``scripts/bootstrap.sh --test`` installs them)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from voice_spades.bench.pulse_sink import PrivatePulse, pulse_missing
from voice_spades.bench.speechd_daemon import PrivateSpeechd, speechd_missing


@dataclass
class Speechd:
    """The running pair: ``address`` for SPEECHD_ADDRESS, ``pulse`` for what was played."""

    pulse: PrivatePulse
    daemon: PrivateSpeechd

    @property
    def address(self) -> str:
        return self.daemon.address


@pytest.fixture(scope="module", name="speechd")
def speechd_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Speechd]:
    missing = speechd_missing() or pulse_missing()
    if missing is not None:
        pytest.skip(missing)
    folder = tmp_path_factory.mktemp("speechd")
    with PrivatePulse(folder / "pulse") as pulse, \
            PrivateSpeechd(folder / "daemon", pulse.server) as daemon:
        yield Speechd(pulse, daemon)


@pytest.fixture(name="speechd_address")
def speechd_address_fixture(speechd: Speechd) -> str:
    return speechd.address
