"""Settings of the PocketSphinx recognizer and the measurements it reports."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class PocketSphinxTuning:
    """Settings of the PocketSphinx recognizer, with the measured defaults.

    ``warp`` scales the frequency axis (1.1 helped every espeak-ng voice, high
    ones most). Sound below ``high_pass_hz`` is removed first (0 keeps it): brown
    noise made slow phrases look far longer than they were. Steady noise is
    subtracted next (``noise_subtraction`` times the noise spectrum, keeping at
    least ``noise_gain_floor``; 0 switches it off): it lifted noisy clips from
    82% to 90%. The wide beams stop the search from losing the right phrase,
    and 16 Gaussians per frame (``topn``, PocketSphinx uses 4) scored 1-2
    points better. The search's verification is a
    logistic of the per-frame gap between the phrase and the free phone loop,
    centred on ``verify_center`` (0.5 there); with ``verify_alone`` it is weighed
    with the winner's verification searched alone (below). Below ``accept_above``
    the utterance is rejected; above it, it may be accepted with a confidence
    under 0.5, so the game confirms instead of acting. Each step of the threshold
    trades correct phrases rejected (harder voices suffer first) against other
    speech let through.
    ``score_temperature`` turns per-frame score gaps between phrases into
    probabilities. Speech longer than ``max_seconds_per_phone`` per phone of
    the phrase (and longer than ``always_allowed_seconds``) is rejected as
    some other sentence. ``garbage_words`` common words (0: none) may be decoded
    instead of a phrase, each at ``garbage_probability``: speech that fits them
    better than any phrase is rejected (a garbage model). Measured on 150
    espeak-ng commands and 112 table-talk clips at the bid and play prompts: 60
    words at 1e-40 kept every command heard (137 of 150, as without it; latency
    unchanged) and cut the table talk taken for a phrase from 47 to 34 of 224; at
    1e-25 it took 16 but lost 6 commands, at 1e-10 none but lost 13 commands.
    """

    warp: float = 1.1
    high_pass_hz: float = 120.0
    beam: float = 1e-80
    word_beam: float = 1e-60
    phone_beam: float = 1e-80
    """The searches' beams (``beam``, ``word_beam``, ``phone_beam``), the same for the
    winner's and the runner-up's: PocketSphinx scales each frame by the best senone
    among those a search keeps active, so a narrower search scores the same path
    higher, and the two scores could no longer be weighed. Measured with the winner's
    beams at 1e-60/1e-45/1e-60: 2 more right of 120 held-out commands (fewer
    rejections), but a narrow winner outweighed a wide runner-up ("ace of spades"
    heard as "eight of spades" at 0.996, "ace" offered at 0.000), table talk was
    taken for a query four to five times as often, and 2 of 200 tries of it acted.
    Searching again wide when the narrow search ended nowhere changed none of 220
    commands."""
    topn: int = 16
    noise_subtraction: float = 1.0
    noise_gain_floor: float = 0.2
    trim_margin_seconds: float = 0.05
    noise_floor: float = 0.003
    min_seconds: float = 0.15
    min_voiced_fraction: float = 0.2
    max_seconds_per_phone: float = 0.18
    always_allowed_seconds: float = 1.2
    verify_center: float = -28.0
    verify_scale: float = 3.0
    accept_above: float = 0.1
    score_temperature: float = 1.5
    garbage_words: int = 60
    garbage_probability: float = 1e-40
    cached_grammars: int = 200
    runner_ups: int = 1
    """How many phrases after the winner are searched for (one search each, the
    phrases found before left out): the alternatives a question may offer."""
    phone_loop_process: bool = True
    """Score the phone loop in a process of its own, beside the grammar search, on a
    machine with more than one core (with one, or when that process fails, it runs
    in this one): the same scores, about 40 ms less per decode where a core is free
    (none on a busy machine), for about 16 MB more in all and a process that loads
    while the grammar decoder does."""
    verify_alone: bool = True
    """Verify the winner also by searching it alone (a grammar of that one phrase, no
    common words beside it) and weighing that score against the phone loop per frame
    of speech (the words' frames, not silence): a logistic centred on
    ``alone_center`` with ``alone_scale``. The verification is then the search's
    verification and this one weighed geometrically (``alone_weight`` is this one's
    exponent). The search's own verification told table talk from commands poorly:
    on 1,154 right English commands (espeak-ng, sets 600 and 604) and 925 table-talk
    tries at five prompts (set 603), keeping 96.4% of the commands let 11.4% of the
    table talk through (a verification of 0.3); weighed with this one, 97.3% and 0.8%;
    this one alone, 96.1% and 1.1%. Measured through the game's decisions (with the
    English floors and questions of :mod:`~voice_spades.voice.understanding.confirmation`
    set anew): accuracy 90.83 -> 93.67% and 94.00 -> 95.00% (sets 600, 604), 89.17 ->
    92.50% held out (606), right plays asked about 4.46 -> 3.03% there, and the one
    wrong action taken unasked there ("discard" heard as "keep the card") asked about;
    table talk answered as a query 11-17 -> 1-3 of 240 tries per prompt. It costs one
    more search of a single phrase per utterance. Italian and French keep the search's
    verification as their fit (see :data:`LANGUAGE_TUNING`)."""
    alone_center: float = -2.5
    alone_scale: float = 1.55
    alone_weight: float = 0.5
    """The exponent of the verification searched alone in the geometric weighing (0: it
    is measured and reported, :attr:`DecodeDetails.alone_verification`, but the fit is
    the search's)."""
    other_meanings: bool = True
    """When the phrases' meanings are known, the runner-ups are searched among other
    meanings only ("tre" after "dichiaro quattro", not "quattro"), so that the
    confidence weighs the winner against another action, not another wording of the
    same one, and a question can offer it. English "play jack … of clubs" (a pause
    inside) was played as "play five of clubs" with no question at a confidence of
    0.67, the runner-up "play the five of clubs"; so weighed, "jack" was the runner-up
    and the card was asked about (347 commands with a pause inside: wrong and unasked 1
    to 0, accuracy 87.32% and latency unchanged; 1,200 commands said whole: accuracy
    unchanged, right plays asked about 51 to 52 of 450; MBROLA's 600: 99.00% unchanged,
    2.02% to 2.43%; 4,320 table-talk tries: the same outcomes; room bench, seed 1: the
    same)."""


LANGUAGE_TUNING: dict[str, dict[str, Any]] = {
    "fr": {"accept_above": 0.05, "alone_weight": 0.0, "max_seconds_per_phone": 0.25,
           "always_allowed_seconds": 1.5},
    "it": {"accept_above": 0.05, "alone_weight": 0.0, "max_seconds_per_phone": 0.24,
           "always_allowed_seconds": 1.5},
}
"""What differs from the defaults when PocketSphinx hears another language through its
English model (measured on espeak-ng speech of the language). Italian and French keep
the grammar search's verification as their fit: their floors were set on it, and
weighed with the winner searched alone, right French commands fitted worse (80.00%
understood on a held-out set where 83.75% were) and right Italian ones no better than
Italian table talk. Both make the alone search without weighing it in (``alone_weight``
0; median decode 140 -> 170 ms in French, 159 -> 183 ms in Italian, 240 commands each):
its result on its own
(:attr:`~voice_spades.voice.recognizers.base.Recognition.alone_fit`) tells their table
talk from right commands of the same kind
(:data:`~voice_spades.voice.understanding.confirmation.ALONE_FLOORS`).

Italian's threshold and lengths are set on several voices (espeak-ng it, it+f3, it+m3,
MBROLA it1, it3; 240 commands said clean and 240 in white or brown noise with
reverberation, 60 table-talk sentences at seven prompts). Its threshold had been set on
espeak-ng alone (0.16): on these voices any threshold from 0.04 to 0.16 gave the same
commands and the same table talk (a right phrase fitting under 0.16 is turned away by a
floor of its kind anyway), so it is 0.05, as French's; on Festival, Pico and MBROLA it2
and it4 it then turns away one right "tengo" fewer. Slow speech with reverberation lasts
longer than English's 0.18 s a phone and 1.2 s allow: on the fitting voices "basta" took
1.21 s and "che carte ho" 0.199 s a phone; the limits are a fifth above those (1.5 s,
0.24 s a phone). On the other voices 5 right commands of 240 ("scarto", "dodici",
"tengo", "la tengo", "salva ed esci") had been turned away as "much longer than the
phrase it resembles"; now none. French's are set so too (espeak-ng fr, fr-be, fr+f3,
MBROLA fr1, fr4, fr6, clean and in noise with reverberation, 480 commands): "je garde"
took 1.21 s and, of the longer phrases, "je joue le huit de cœur" 0.21 s a phone; the
limits are 1.5 s and 0.25 s a phone. On Pico and MBROLA fr2, fr3, fr5, fr7, 11 of 240
commands had been turned away so ("rends les", "garde la", "pas d'échange"), now 1:
understood 58.75 -> 61.67%; table talk asked about 15 -> 20 of 420 tries and answered
as a query 16 -> 23 (50 tries had been turned away so, 13 now). French phrases match the
English phones less well, so a lower verification is accepted (at the default, a
fifth of right French commands were rejected; at 0.05, 6%), and the game asks about
more of them instead (its confidence is the verification times the winner's share)."""


def tuning_for(language: str) -> PocketSphinxTuning:
    """The measured settings for ``language`` (English's for a language not listed)."""
    return replace(PocketSphinxTuning(), **LANGUAGE_TUNING.get(language, {}))


@dataclass(frozen=True)
class DecodeDetails:
    """Measurements behind the last decision, for tuning and benchmarks.

    ``phone_loop_gap`` is the per-frame score gap between the best phrase and
    the free phone loop (higher is more phrase-like; with ``verify_alone``, the
    phrase searched alone, per frame of its words); ``candidates`` are the
    ranked phrases (normalized) with their raw decoder scores.
    """

    voiced_fraction: float
    grammar_best: str | None = None
    phone_loop_gap: float | None = None
    verification: float | None = None
    candidates: tuple[tuple[str, int], ...] = ()
    search_verification: float | None = None
    """With ``verify_alone``, the verification from the winner's own search, which the
    verification weighs in (see ``alone_weight``)."""
    alone_verification: float | None = None
    """With ``verify_alone``, the verification of the winner searched alone."""
