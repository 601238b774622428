#!/usr/bin/env bash
# Installs what voice_spades needs on a fresh machine, then leaves a ready
# virtual environment in .venv. Safe to run again: it only installs what is missing.
# Usage: scripts/bootstrap.sh [--test]   (--test adds what the test suite needs)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
want_test=0
if [ "${1:-}" = "--test" ]; then want_test=1; fi

say() { printf 'voice-spades setup: %s\n' "$*" >&2; }

# --- system packages -------------------------------------------------------
missing=()
command -v espeak-ng >/dev/null 2>&1 || missing+=(espeak-ng)
# (grep reads all of ldconfig's list: with -q it would stop early, and under pipefail
# the SIGPIPE that ldconfig then gets would count as "missing".)
ldconfig -p 2>/dev/null | grep 'libportaudio\.so\.2' >/dev/null || missing+=(libportaudio2)
# Echo cancellation (speaking over the narrator on loudspeakers).
ldconfig -p 2>/dev/null | grep 'libspeexdsp\.so\.1' >/dev/null || missing+=(libspeexdsp1)
if [ "$want_test" = 1 ]; then
    command -v sox >/dev/null 2>&1 || missing+=(sox)
    # Two more synthesizers, for test speech that is not espeak-ng's.
    command -v flite >/dev/null 2>&1 || missing+=(flite)
    # liblouis's braille tables: the French catalog's no-break spaces as braille shows them.
    command -v lou_translate >/dev/null 2>&1 || missing+=(liblouis-bin)
    command -v text2wave >/dev/null 2>&1 || missing+=(festival)
    [ -d /usr/share/festival/voices/english/kal_diphone ] || missing+=(festvox-kallpc16k)
    # A private speech-dispatcher daemon (espeak-ng module) for the screen-reader tests
    # and `bench speech`, playing into a private PulseAudio null sink (a virtual sound
    # card with a clock), which ALSA programs reach through its pulse plugin.
    command -v speech-dispatcher >/dev/null 2>&1 || missing+=(speech-dispatcher)
    [ -x /usr/lib/speech-dispatcher-modules/sd_espeak-ng ] ||
        missing+=(speech-dispatcher-espeak-ng)
    command -v pulseaudio >/dev/null 2>&1 || missing+=(pulseaudio)
    command -v parec >/dev/null 2>&1 || missing+=(pulseaudio-utils)
    ls /usr/lib/*/alsa-lib/libasound_module_pcm_pulse.so >/dev/null 2>&1 ||
        missing+=(libasound2-plugins)
    # A private PostgreSQL server for the tests of tables shared by several server
    # processes, and `bench server` on two processes (started in a temporary folder).
    ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
    # Headless Chromium and its WebDriver, for the large-print page's tests (Selenium).
    command -v chromium >/dev/null 2>&1 || missing+=(chromium)
    command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
fi
if [ "${#missing[@]}" -gt 0 ]; then
    if command -v apt-get >/dev/null 2>&1; then
        sudo_cmd=()
        if [ "$(id -u)" != 0 ]; then
            if command -v sudo >/dev/null 2>&1; then sudo_cmd=(sudo); fi
        fi
        if [ "$(id -u)" = 0 ] || [ "${#sudo_cmd[@]}" -gt 0 ]; then
            say "installing system packages: ${missing[*]}"
            "${sudo_cmd[@]}" apt-get update -qq >/dev/null || true
            if ! DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq \
                    "${missing[@]}" >/dev/null; then
                say "could not install ${missing[*]}; speech or microphone may be unavailable (the game still runs in text)."
            fi
        else
            say "please install: ${missing[*]} (for example: sudo apt-get install ${missing[*]})"
        fi
    else
        say "please install with your package manager: ${missing[*]}"
    fi
fi

# --- Python environment ----------------------------------------------------
python_bin=""
for candidate in python3.13 python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
        "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        python_bin="$candidate"
        break
    fi
done
if [ -z "$python_bin" ]; then
    say "Python 3.11 or newer is needed; please install it (for example: sudo apt-get install python3)."
    exit 1
fi

venv="$root/.venv"
if [ ! -x "$venv/bin/python" ]; then
    say "creating the virtual environment in .venv"
    if ! "$python_bin" -m venv "$venv" 2>/dev/null; then
        if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null || true
        fi
        rm -rf "$venv"
        "$python_bin" -m venv "$venv"
    fi
fi

extras=""
stamp="$venv/.installed"
if [ "$want_test" = 1 ]; then
    extras="[test]"
    stamp="$venv/.installed-test"
fi
fingerprint="$(cat "$root/pyproject.toml" | cksum)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$fingerprint" ]; then
    say "installing Python packages (first run only; needs the package index)"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip >/dev/null 2>&1 || true
    if ! "$venv/bin/python" -m pip install -q --disable-pip-version-check -e "$root$extras" \
            >"$venv/pip.log" 2>&1; then
        cat "$venv/pip.log" >&2
        say "installing the Python packages failed (see above); is the package index reachable?"
        exit 1
    fi
    echo "$fingerprint" > "$stamp"
fi

# --- axe-core for the page's accessibility tests ---------------------------
# The pinned release from npm, checked against its SHA-512 integrity, unpacked into
# the environment (never into the repository; the page never loads it when playing).
if [ "$want_test" = 1 ]; then
    "$venv/bin/python" "$root/scripts/fetch_axe_core.py" "$venv/share" ||
        say "the page's accessibility tests need axe-core; is registry.npmjs.org reachable?"
fi
