"""What hearing one clip came to (:class:`Outcome`), and the figures of many: what
``voice-spades bench voice`` prints per backend and grammar, per prompt, per kind, for
table talk per prompt, and the misses."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Outcome:
    """How one clip was understood."""

    transcript: str
    heard: str
    kind: str
    correct: bool
    wrong: bool
    """Another intent that would act (the dangerous error)."""
    unasked: bool
    """Wrong, not undone by saying the right thing next (a card, a bid, an answer,
    quitting; not a mark or a speech command), and not asked about first."""
    needless: bool | None
    """For a card, draw or exchange heard right: whether it was asked about anyway."""
    rejected: bool
    latency: float
    audio_seconds: float
    decode_seconds: float
    details: dict[str, object] | None = None
    """What the decision rested on (confidence, alternatives...), for ``--dump``."""
    prompt: str = "full"
    """The prompt the clip was tried at: bid, play, question, draw... ("full": any)."""
    answer: str = "none"
    """What the game would do: "act" (an action or lasting command, unasked), "ask" (a
    question), "query" (an answer or a harmless command), "sorry" ("say again"),
    "ignore" (noise)."""
    offered_right: bool = False
    """Wrong and asked about, with the right action offered in the question ("Quattro?
    O tre?"): one word from the player puts it right."""
    turned_away: str = ""
    """Answered "say again" though the phrase heard meant the right intent: the gate
    that turned it away ("floor": a table-talk floor of its kind; "answer": an answer's
    confidence bar; "recognizer": the recognizer's threshold; "other"); "" otherwise."""


def _rate(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def summary(backend: str, grammar: str, outcomes: Sequence[Outcome]) -> dict[str, object]:
    """The figures of one backend and grammar: commands overall, then per prompt
    (``prompts``), and speech outside the grammar per prompt (``chatter``)."""
    commands = [o for o in outcomes if o.kind != "chatter"]
    row: dict[str, object] = {"backend": backend, "grammar": grammar,
                              **_command_figures(commands)}
    prompts = sorted({o.prompt for o in commands})
    row["prompts"] = {p: _command_figures([o for o in commands if o.prompt == p])
                      for p in prompts}
    chatter = [o for o in outcomes if o.kind == "chatter"]
    if chatter:
        row["chatter"] = {p: _chatter_figures([o for o in chatter if o.prompt == p])
                          for p in sorted({o.prompt for o in chatter})}
    return row


def _command_figures(outcomes: Sequence[Outcome]) -> dict[str, object]:
    n = len(outcomes)
    latencies = sorted(o.latency * 1000 for o in outcomes) or [0.0]
    audio = sum(o.audio_seconds for o in outcomes)
    return {
        "clips": n,
        "intent_accuracy": _rate(sum(o.correct for o in outcomes), n),
        "wrong_intent_rate": _rate(sum(o.wrong for o in outcomes), n),
        "wrong_unconfirmed_rate": _rate(sum(o.unasked for o in outcomes), n),
        "wrong_unconfirmed": sum(o.unasked for o in outcomes),
        "wrong_right_offered": sum(o.offered_right for o in outcomes),
        "needless_question_rate": _rate(sum(o.needless is True for o in outcomes),
                                        sum(o.needless is not None for o in outcomes)),
        "rejection_rate": _rate(sum(o.rejected for o in outcomes), n),
        "rejected": sum(o.rejected for o in outcomes),
        "rejected_heard_right": sum(bool(o.turned_away) for o in outcomes),
        "rejected_heard_right_by": {gate: sum(o.turned_away == gate for o in outcomes)
                                    for gate in ("floor", "answer", "recognizer", "other")},
        "latency_ms_median": round(statistics.median(latencies), 1),
        "latency_ms_p95": round(latencies[min(len(latencies) - 1,
                                              int(0.95 * len(latencies)))], 1),
        "real_time_factor": round(sum(o.decode_seconds for o in outcomes) / audio, 4)
        if audio else 0.0,
    }


def _chatter_figures(outcomes: Sequence[Outcome]) -> dict[str, object]:
    n = len(outcomes)
    figures: dict[str, object] = {"clips": n}
    for answer in ("act", "ask", "query", "sorry", "ignore", "remind"):
        figures[answer] = sum(o.answer == answer for o in outcomes)
        figures[f"{answer}_rate"] = _rate(sum(o.answer == answer for o in outcomes), n)
    return figures


def _figures_line(figures: dict[str, object]) -> str:
    return (f"accuracy {figures['intent_accuracy']:.2%}, "
            f"wrong {figures['wrong_intent_rate']:.2%} "
            f"({figures['wrong_unconfirmed']} not asked about, "
            f"{figures['wrong_right_offered']} asked offering the right one), "
            f"rejected {figures['rejection_rate']:.2%} "
            f"({figures['rejected_heard_right']} of {figures['rejected']} heard right"
            f"{_gates(figures)}), "
            f"right plays asked about {figures['needless_question_rate']:.2%}, "
            f"latency median {figures['latency_ms_median']} ms, "
            f"p95 {figures['latency_ms_p95']} ms")


def _gates(figures: dict[str, object]) -> str:
    gates = figures["rejected_heard_right_by"]
    assert isinstance(gates, dict)
    named = [f"{gate} {count}" for gate, count in gates.items() if count]
    return f": {', '.join(named)}" if named else ""


def print_row(row: dict[str, object], outcomes: Sequence[Outcome], verbose: bool) -> None:
    commands = [o for o in outcomes if o.kind != "chatter"]
    print(f"{row['backend']} ({row['grammar']} grammar, {row['clips']} commands"
          f"{', ' + str(row['language']) if row.get('language', 'en') != 'en' else ''}): "
          f"{_figures_line(row)}, real-time factor {row['real_time_factor']}")
    prompts = row["prompts"]
    assert isinstance(prompts, dict)
    if row["grammar"] != "full":
        for prompt, figures in prompts.items():
            print(f"  at the {prompt} prompt ({figures['clips']}): {_figures_line(figures)}")
    kinds: dict[str, list[bool]] = {}
    for o in commands:
        kinds.setdefault(o.kind, []).append(o.correct)
    if kinds:
        print("  by kind: " + ", ".join(f"{kind} {sum(ok) / len(ok):.0%} of {len(ok)}"
                                        for kind, ok in sorted(kinds.items())))
    chatter = row.get("chatter")
    if isinstance(chatter, dict):
        for prompt, f in chatter.items():
            print(f"  chatter at the {prompt} prompt ({f['clips']}): acted unasked "
                  f"{f['act']}, asked {f['ask']} ({f['ask_rate']:.1%}), answered as a query "
                  f"{f['query']}, \"say again\" {f['sorry']}, ignored {f['ignore']}, "
                  f"told how to wake {f['remind']}")
    misses = [o for o in commands if not o.correct]
    misses += [o for o in outcomes if o.kind == "chatter" and o.answer in ("act", "ask")]
    for o in misses if verbose else misses[:10]:
        label = "WRONG" if o.wrong or o.answer == "act" else "asked" if o.answer == "ask" \
            else "rejected" if o.rejected else "miss"
        print(f"  {label}: {o.transcript!r} heard as {o.heard!r} ({o.kind}, {o.prompt})")
