"""`bench bots`: split players, round robins and their paired differences, the
defence comparison."""

from __future__ import annotations

import json

import pytest

from voice_spades.bench.bots import main
from voice_spades.bench.bots_defence import CLOSE, play_deal, same_card
from voice_spades.bench.bots_play import Job
from voice_spades.bench.bots_players import SplitPlayer, make_player
from voice_spades.bench.bots_round_robin import entrants, pairings
from voice_spades.bots import decide, make_bot
from voice_spades.engine import Card, Match, Phase, mask_of, profile

RULES = profile("cardgames")


def test_split_player_bids_like_one_and_plays_like_the_other() -> None:
    match = Match(RULES, seed=3)
    seat = match.to_act
    assert seat is not None
    split = make_player("rules/easy", seat, RULES, 1, None)
    assert isinstance(split, SplitPlayer) and split.name == "rules/easy"
    easy = make_bot("easy", seat, RULES)
    assert decide(split, match.view(seat)) == decide(easy, match.view(seat))
    while match.view(match.to_act or 0).phase is not Phase.PLAY:
        s = match.to_act
        assert s is not None
        match.apply(decide(make_bot("easy", s, RULES), match.view(s)))
    s = match.to_act
    assert s is not None
    rules_player = make_player("rules", s, RULES, 1, None)
    assert decide(make_player("rules/easy", s, RULES, 1, None), match.view(s)) == \
        decide(rules_player, match.view(s))


def test_pairings() -> None:
    assert entrants("hard, medium,hard,,rules") == ["hard", "medium", "rules"]
    assert pairings(["a", "b", "c"], []) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert pairings(["a", "b"], ["x", "a"]) == [("a", "x"), ("b", "x"), ("b", "a")]


def test_round_robin_reports_margins_components_and_paired_differences(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--round-robin", "easy,medium/easy", "--against", "rules", "--deals", "3",
                 "--seed", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [(p["a"], p["b"]) for p in report["pairings"]] == [("easy", "rules"),
                                                             ("medium/easy", "rules")]
    for pairing in report["pairings"]:
        assert len(pairing["deal_margins"]) == 3
        for level in pairing["levels"].values():
            assert {"set_rate", "bags_per_hand", "nil_bid_rate", "nil_success_rate",
                    "nil_points_per_hand", "contract_points_per_hand",
                    "penalty_per_hand", "points_per_hand", "contract_per_hand"} <= set(level)
            assert level["points_per_hand"] == pytest.approx(
                level["nil_points_per_hand"] + level["contract_points_per_hand"]
                + level["penalty_per_hand"], abs=0.02)
    (diff,) = report["differences"]
    assert (diff["a"], diff["b"], diff["against"]) == ("easy", "medium/easy", "rules")
    margins = [p["deal_margins"] for p in report["pairings"]]
    expected = sum(margins[0][i] - margins[1][i] for i in margins[0]) / 3
    assert diff["deal"]["mean"] == pytest.approx(expected, abs=0.01)
    assert diff["deal"]["pairs"] == 3


def test_round_robin_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--round-robin", "easy,rules", "--deals", "2", "--matches", "1",
                 "--seed", "4"]) == 0
    text = capsys.readouterr().out
    assert "easy" in text and "rules" in text and "95% CI" in text
    assert "nil bid" in text and "paired" not in text


def test_against_needs_a_round_robin(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--against", "rules", "--deals", "1"]) == 2
    assert "--against needs --round-robin" in capsys.readouterr().err


def test_one_pair_prints_points_by_component(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--a", "rules", "--b", "easy", "--deals", "2", "--seed", "4"]) == 0
    text = capsys.readouterr().out
    assert "points per side-hand: rules" in text and "contracts" in text


def test_the_high_bidder_s_contract_is_counted(capsys: pytest.CaptureFixture[str]) -> None:
    """The rules player bidding like ``highbid`` against itself bidding the sure count,
    on the same deals: its side's contract per hand is the higher."""
    assert main(["--a", "rules/highbid", "--b", "rules", "--deals", "6", "--seed", "5",
                 "--json"]) == 0
    levels = json.loads(capsys.readouterr().out)["levels"]
    assert levels["a"]["contract_per_hand"] > levels["b"]["contract_per_hand"] + 1
    assert main(["--a", "rules/highbid", "--b", "rules", "--deals", "1"]) == 0
    assert "contract per side-hand (tricks): rules/highbid" in capsys.readouterr().out


def test_a_run_split_into_parts_plays_the_same_deals(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Deals 0-3 in one run, or 0-1 then 2-3: the same margin on every deal."""
    def margins(*extra: str) -> dict[str, float]:
        assert main(["--a", "rules", "--b", "easy", "--seed", "6", "--json", *extra]) == 0
        out: dict[str, float] = json.loads(capsys.readouterr().out)["deal_margins"]
        return out
    whole = margins("--deals", "4")
    assert list(whole) == ["0", "1", "2", "3"]
    assert {**margins("--deals", "2"), **margins("--deals", "2", "--first", "2")} == whole
    assert main(["--deals", "2", "--first", "-1"]) == 2
    assert "--first must be 0 or more" in capsys.readouterr().err


def test_defence_compares_cards_only_where_the_other_side_is_close() -> None:
    """Easy's cards differ from Medium's, each difference played on to the end; Medium
    against itself never differs (the comparison reads the view as Medium does)."""
    easy = [d for i in range(3) for sw in (False, True)
            for d in play_deal(Job("deal", i, sw, RULES, "easy", "rules", 7, None))]
    assert easy and all(d.need in CLOSE and d.real is not None for d in easy)
    changed = [d for d in easy if d.with_medium is not None]
    assert changed and all(d.medium_card != d.a_card for d in changed)
    medium = [d for i in range(3) for sw in (False, True)
              for d in play_deal(Job("deal", i, sw, RULES, "medium", "rules", 7, None))]
    assert medium and all(d.with_medium is None for d in medium)


def test_touching_cards_are_the_same_card() -> None:
    nine, ten, jack = (Card.parse(t).index for t in ("9D", "10D", "JD"))
    assert same_card(nine, jack, mask_of([Card.parse("9D"), Card.parse("JD")]),
                     mask_of([Card.parse("10D")]))
    assert not same_card(nine, jack, mask_of([Card.parse("9D"), Card.parse("JD")]), 0)
    assert same_card(nine, ten, mask_of([Card.parse("9D"), Card.parse("10D")]), 0)
    assert not same_card(nine, Card.parse("9H").index, 0, 0)


def test_defence_prints_its_figures_and_takes_single_deals_only(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--a", "easy", "--b", "rules", "--deals", "1", "--seed", "7", "--defence",
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["plays"] == 2 and set(report["no_own_nil"]) >= {
        "decisions", "differ", "set_with_a_card", "set_with_medium_card", "medium_minus_a"}
    assert main(["--defence", "--deals", "0", "--matches", "2"]) == 2
    assert "--defence takes single deals" in capsys.readouterr().err
