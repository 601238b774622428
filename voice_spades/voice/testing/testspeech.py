"""Synthesized test speech: espeak-ng phrases as 16 kHz mono int16 PCM.

The recognizer tests and the voice benchmark need many spoken phrases in
several voices, speeds and noise levels. :func:`synthesize` renders one with
espeak-ng, resamples it with sox and caches the result by its parameters, so a
second run costs a file read.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import wave
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from voice_spades.voice.testing.mbrola import is_mbrola, speak_to_wav

SAMPLE_RATE = 16000
CACHE_ENV = "VOICE_SPADES_SPEECH_CACHE"
# Bumped when the rendering changes, so stale cached clips are not reused (2: MBROLA
# voices spoken whole, never with silent holes).
_RENDER_VERSION = 2


@dataclass(frozen=True)
class SpeechParams:
    """How one phrase is spoken.

    ``noise`` is the peak amplitude of added white noise as a fraction of full
    scale (like sox's ``synth whitenoise vol N``); ``pad_seconds`` of silence
    go before and after the speech; ``seed`` fixes the noise.
    """

    voice: str = "en-us"
    speed: int = 150
    pitch: int = 50
    noise: float = 0.0
    pad_seconds: float = 0.0
    seed: int = 0


def tools_available() -> bool:
    """Return True when espeak-ng and sox are both on the PATH."""
    return shutil.which("espeak-ng") is not None and shutil.which("sox") is not None


def default_cache_dir() -> Path:
    """Return the clip cache folder: $VOICE_SPADES_SPEECH_CACHE or ~/.cache/voice_spades."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "voice_spades" / "testspeech"


def synthesize(
    text: str,
    params: SpeechParams | None = None,
    cache_dir: Path | None = None,
) -> bytes:
    """Return ``text`` spoken as 16 kHz mono int16 little-endian PCM
    (:class:`~voice_spades.voice.testing.mbrola.MissingSounds` when an MBROLA voice
    cannot say all of it)."""
    return synthesize_file(text, params, cache_dir).read_bytes()


def synthesize_file(
    text: str,
    params: SpeechParams | None = None,
    cache_dir: Path | None = None,
) -> Path:
    """Return the path of a cached raw PCM file holding ``text`` spoken with ``params``."""
    params = params or SpeechParams()
    folder = cache_dir or default_cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    key = hashlib.sha256(repr((_RENDER_VERSION, text, asdict(params))).encode()).hexdigest()
    path = folder / f"{key[:32]}.raw"
    if path.exists():
        return path
    pcm = _render_clean(text, params)
    samples = np.frombuffer(pcm, dtype=np.int16)
    if params.pad_seconds > 0:
        pad = np.zeros(int(params.pad_seconds * SAMPLE_RATE), dtype=np.int16)
        samples = np.concatenate([pad, samples, pad])
    if params.noise > 0:
        samples = np.frombuffer(add_white_noise(samples.tobytes(), params.noise, params.seed),
                                dtype=np.int16)
    # Write then rename, so concurrent test workers never read half a clip.
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
    with os.fdopen(fd, "wb") as handle:
        handle.write(samples.tobytes())
    os.replace(tmp, path)
    return path


def add_white_noise(pcm: bytes, level: float, seed: int = 0) -> bytes:
    """Mix uniform white noise of peak ``level`` (fraction of full scale) into ``pcm``."""
    samples = np.frombuffer(pcm, dtype=np.int16).astype(np.float64)
    rng = np.random.default_rng(seed)
    noise = rng.uniform(-level, level, size=samples.shape) * 32767.0
    mixed = np.clip(samples + noise, -32768, 32767)
    return mixed.astype(np.int16).tobytes()


def add_brown_noise(pcm: bytes, level: float, seed: int = 0) -> bytes:
    """Mix brown (1/f squared, rumbling) noise of peak ``level`` into ``pcm``: traffic,
    an air conditioner, a fan, the low-frequency noise rooms are full of."""
    samples = np.frombuffer(pcm, dtype=np.int16).astype(np.float64)
    rng = np.random.default_rng(seed)
    walk = np.zeros(len(samples))
    steps = rng.uniform(-1.0, 1.0, size=len(samples))
    total = 0.0
    leak = 0.999  # a leaky integrator: brown noise that does not drift away
    for i, step in enumerate(steps):
        total = total * leak + step
        walk[i] = total
    walk -= walk.mean() if len(walk) else 0.0
    peak = float(np.abs(walk).max()) if len(walk) else 0.0
    if peak > 0:
        walk *= level * 32767.0 / peak
    mixed = np.clip(samples + walk, -32768, 32767)
    return mixed.astype(np.int16).tobytes()


def white_noise(seconds: float, level: float, seed: int = 0) -> bytes:
    """Return ``seconds`` of white noise alone, as 16 kHz int16 PCM."""
    silence = bytes(2 * int(seconds * SAMPLE_RATE))
    return add_white_noise(silence, level, seed)


def silence(seconds: float) -> bytes:
    """Return ``seconds`` of digital silence as 16 kHz int16 PCM."""
    return bytes(2 * int(seconds * SAMPLE_RATE))


def write_wav(pcm: bytes, path: Path) -> None:
    """Save 16 kHz mono int16 PCM as a WAV file (for listening to a failing clip)."""
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(SAMPLE_RATE)
        out.writeframes(pcm)


def _render_clean(text: str, params: SpeechParams) -> bytes:
    if not tools_available():
        raise RuntimeError("espeak-ng and sox are needed to synthesize test speech")
    with tempfile.TemporaryDirectory(prefix="voice-spades-tts-") as tmp:
        wav = Path(tmp) / "speech.wav"
        raw = Path(tmp) / "speech.raw"
        if is_mbrola(params.voice):
            speak_to_wav(text, params.voice, params.speed, params.pitch, wav)
        else:
            subprocess.run(
                ["espeak-ng", "-v", params.voice, "-s", str(params.speed),
                 "-p", str(params.pitch), "-w", str(wav), "--", text],
                check=True, capture_output=True,
            )
        subprocess.run(
            ["sox", str(wav), "-r", str(SAMPLE_RATE), "-c", "1", "-b", "16",
             "-e", "signed-integer", "-t", "raw", str(raw)],
            check=True, capture_output=True,
        )
        return raw.read_bytes()
