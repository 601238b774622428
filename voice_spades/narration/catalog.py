"""The one message catalog: every sentence the game says, keyed by message id.

Each entry has a normal form and, where they differ, a brief and a verbose form.
``""`` means "say nothing at this verbosity". Templates use ``str.format`` fields;
the phrasebook (:mod:`.phrases`) fills them with spoken names of seats, cards and
numbers, themselves taken from the ``word.*`` entries here. Nothing else in the
game builds a sentence.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Verbosity(Enum):
    """How much the narrator says."""

    BRIEF = "brief"
    NORMAL = "normal"
    VERBOSE = "verbose"

    def next(self) -> Verbosity:
        """The following level, wrapping around (brief, normal, verbose, brief...)."""
        order = list(Verbosity)
        return order[(order.index(self) + 1) % len(order)]


@dataclass(frozen=True, slots=True)
class Template:
    """One message in its three lengths; ``None`` means "as normal"."""

    normal: str
    brief: str | None = None
    verbose: str | None = None

    def pick(self, verbosity: Verbosity) -> str:
        """The template text for ``verbosity``."""
        if verbosity is Verbosity.BRIEF and self.brief is not None:
            return self.brief
        if verbosity is Verbosity.VERBOSE and self.verbose is not None:
            return self.verbose
        return self.normal


T = Template

CATALOG: dict[str, Template] = {
    # ----- words and fragments (used inside other messages) -----------------
    "word.you": T("you"),
    "word.your": T("your"),
    "word.partner": T("partner {name}", brief="{name}"),
    "word.possessive": T("{name}'s"),
    "word.side_us": T("you and {partner}", brief="us"),
    "word.side_them": T("{first} and {second}", brief="them"),
    "word.and": T("{head} and {last}"),
    "word.or": T("{head} or {last}"),
    "word.list_sep": T(", "),
    "word.group_sep": T("; "),
    "word.card": T("{rank} of {suit}"),
    "word.rank.11": T("jack"),
    "word.rank.12": T("queen"),
    "word.rank.13": T("king"),
    "word.rank.14": T("ace"),
    "word.suit_cards": T("{suit} {ranks}", verbose="{suit}, {count}: {ranks}"),
    "word.void": T("no {suit}", brief=""),
    "word.nil": T("nil"),
    "word.nil_note": T(" 0 is nil.", brief=""),
    "word.blind_nil": T("blind nil"),
    "word.not_yet": T("not yet"),
    "word.that": T("that"),
    "word.plus": T("plus {n}"),
    "word.minus": T("minus {n}"),
    "word.zero_points": T("no points"),
    "word.cards": T("{n} cards"),
    "word.one_card": T("1 card"),
    "word.bid_range": T("{low} to {high}"),
    "word.seat_bid": T("{seat} {bid}"),
    "word.seat_card": T("{seat} {card}"),
    "word.seat_bid_took": T("{seat} bid {bid}, took {took}", brief="{seat} {took} of {bid}"),
    "word.side_score": T("{side} {score} with {bags}", brief="{side} {score}"),
    "word.bags": T("{n} bags"),
    "word.one_bag": T("1 bag"),
    "word.side_number": T("{side} {n}"),
    "word.phase.bid": T("bid"),
    "word.phase.play": T("play"),
    "word.phase.draw": T("draw"),
    "word.phase.blind-nil": T("decide on blind nil"),
    "word.phase.exchange": T("exchange cards"),
    "word.where.bid": T("bidding"),
    "word.where.play": T("trick {trick}"),
    "word.where.draw": T("the draw"),
    "word.where.blind-nil": T("before the draw"),
    "word.where.exchange": T("the blind nil exchange"),
    "word.marked": T(", marked", brief=" marked"),
    "word.not_playable": T(", not playable", brief=""),
    "word.spades_broken": T("Spades are broken."),
    "word.spades_not_broken": T("Spades are not broken."),
    "word.only_spades": T("You hold only spades."),
    # ----- the deal ----------------------------------------------------------
    "hand.started": T("Hand {number}. {dealer} dealt.", brief="Hand {number}.",
                      verbose="Hand {number}. {dealer} dealt; first to bid: {first}."),
    "hand.started_draw": T("Hand {number}. First to draw: {dealer}.", brief="Hand {number}.",
                           verbose="Hand {number}. First to draw: {dealer}; "
                                   "first to bid and lead: {first}."),
    "hand.dealt": T("Your hand: {hand}.", verbose="Your hand, {count}: {hand}."),
    "blind_nil.declared": T("{Seat} declared blind nil!"),
    "blind_nil.declined": T("{Seat} chose to look at the cards.", brief=""),
    "draw.kept": T("You keep the {card}. {count}.", brief="Kept.",
                   verbose="You keep the {card}; the next card goes to the discards. "
                           "You have {count}."),
    "draw.discarded": T("You take the {received}. {count}.", brief="Took the {received}.",
                        verbose="You discard the {shown} and take the {received}. "
                                "You have {count}."),
    "draw.other": T("{Seat} drew.", brief="", verbose="{Seat} drew and holds {count}."),
    "draw.finished": T("The draw is over. Your hand: {hand}."),
    "exchange.you": T("You gave back {given} and received {received}."),
    "exchange.you_none": T("You kept all your cards."),
    "exchange.other": T("{Seat} exchanged {count}."),
    # ----- bidding -----------------------------------------------------------
    "bid.made": T("{Seat} bid {bid}.", brief="{Seat} {bid}."),
    "bidding.complete": T("Bidding done: {contracts}. {total} bid for {tricks} tricks.",
                          brief="Bids: {contracts}.",
                          verbose="Bidding done. Bids: {bids}. Contracts: {contracts}. "
                                  "{total} bid for {tricks} tricks."),
    # ----- play --------------------------------------------------------------
    "card.led": T("{Seat} led the {card}.", brief="{Seat} led {card}.",
                  verbose="Trick {trick}: {Seat} led the {card}."),
    "card.played": T("{Seat} played the {card}.", brief="{Seat}, {card}."),
    "spades.broken": T("Spades are broken.", brief="Spades broken.",
                       verbose="{Seat} broke spades."),
    "trick.won": T("{Seat} won the trick with the {card}.", brief="{Seat} won.",
                   verbose="{Seat} won trick {number} with the {card}: {plays}. "
                           "Tricks: {tally}."),
    "trick.won_summary": T("{Seat} won the trick with the {card}: {plays}.",
                           brief="{Seat} won: {plays}.",
                           verbose="{Seat} won trick {number} with the {card}: {plays}. "
                                   "Tricks: {tally}."),
    "nil.broken": T("That breaks {whose} nil.", brief="{Whose} nil is broken."),
    # ----- scoring -----------------------------------------------------------
    "score.side": T("{Side}: bid {contract}, took {tricks}, {points}.",
                    brief="{Side} {points}.",
                    verbose="{Side}: bid {contract}, took {tricks}: {parts}; "
                            "total {points}, score {score} with {bags}."),
    "score.side_nil_only": T("{Side}: no contract, took {tricks}, {points}.",
                             brief="{Side} {points}.",
                             verbose="{Side}: no contract, took {tricks}: {parts}; "
                                     "total {points}, score {score} with {bags}."),
    "score.part.contract": T("{points} for the contract"),
    "score.part.bags": T("{points} for {bags}"),
    "score.part.nil": T("{points} for nil"),
    "score.part.exact": T("{points} exact-bid bonus"),
    "score.part.big": T("{points} big-contract bonus"),
    "score.part.penalty": T("{points} bag penalty"),
    "score.part.none": T("nothing scored"),
    "score.totals": T("Hand {number} over. Scores: {scores}.", brief="Scores: {scores}."),
    "nil.made": T("{Seat} made nil: plus {points}.", brief="{Seat} made nil."),
    "nil.failed": T("{Seat} failed nil: minus {points}.", brief="{Seat} failed nil."),
    "blind_nil.made": T("{Seat} made blind nil: plus {points}.", brief="{Seat} made blind nil."),
    "blind_nil.failed": T("{Seat} failed blind nil: minus {points}.",
                          brief="{Seat} failed blind nil."),
    "boston": T("Boston! {Side} took all {tricks} tricks."),
    "tied": T("Tied at the top with {score}: one more hand.",
              brief="Tied at {score}: one more hand."),
    "match.won": T("You won the match, {scores}, after {hands} hands!",
                   brief="You won the match!"),
    "match.won_side": T("{Side} won the match, {scores}, after {hands} hands!",
                        brief="{Side} won the match!"),
    "match.lost": T("{Side} won the match, {scores}, after {hands} hands.",
                    brief="{Side} won the match."),
    # ----- your turn ---------------------------------------------------------
    "prompt.bid": T("Your bid: {choices}.{nil_note}{notes}", brief="Bid {choices}.{notes}",
                    verbose="Your bid: {choices}.{nil_note}{notes} Bids so far: {bids}."),
    "prompt.bid_note": T(" {note}"),
    "prompt.lead": T("Your lead. {spades}", brief="Your lead. {spades}",
                     verbose="Your lead, trick {trick}. {spades}"),
    "prompt.follow": T("Your play: follow {suit}.", brief="Follow {suit}.",
                       verbose="Your play: follow {suit}. On the table: {table}."),
    "prompt.void": T("Your play: you have no {suit}, play any card.",
                     brief="No {suit}: any card.",
                     verbose="Your play: you have no {suit}, play any card. "
                             "On the table: {table}."),
    "prompt.blind_nil": T("Blind nil? Decide before you see your cards: yes or no.",
                          brief="Blind nil? Yes or no.",
                          verbose="Blind nil? Decide before you see your cards: yes or no. "
                                  "Made it scores {made}, failed it costs {made}; you may "
                                  "then exchange up to {limit} cards."),
    "prompt.draw": T("You see the {card}: keep or discard?",
                     brief="{card}: keep or discard?",
                     verbose="You see the {card}: keep or discard? You hold {count}; "
                             "discarding it gives you the next card unseen."),
    "prompt.exchange": T("Blind nil exchange: mark up to {limit} cards to give back with "
                         "{mark}, then press {confirm}.",
                         brief="Exchange: mark up to {limit} with {mark}, then {confirm}."),
    "prompt.match_over": T("The match is over. Press {new} for a new game or {quit} to quit."),
    # ----- answers to questions ----------------------------------------------
    "answer.table": T("On the table: {plays}.", brief="{plays}."),
    "answer.table_empty": T("The table is empty. {leader} to lead.",
                            brief="Empty. {leader} leads."),
    "answer.table_bidding": T("No cards on the table yet: bidding."),
    "answer.suit_led": T("{suit} led.", verbose="{suit} led, by {leader}."),
    "answer.nothing_led": T("Nothing led yet."),
    "answer.game_info": T("Trick {trick} of {tricks}. {players}.",
                          brief="Trick {trick}. {players}."),
    "answer.game_info_bidding": T("Bidding. Bids: {bids}."),
    "answer.game_info_draw": T("{where}. Cards held: {held}."),
    "answer.scores": T("Scores: {scores}. Target {target}.", brief="{scores}."),
    "answer.hand": T("Your hand: {hand}.", verbose="Your hand, {count}: {hand}."),
    "answer.hand_empty": T("You hold no cards."),
    "answer.suit": T("{suit}: {ranks}."),
    "answer.suit_void": T("No {suit}."),
    "answer.legal_cards": T("You can play {cards}."),
    "answer.legal_any": T("You can play any card."),
    "answer.legal_bids": T("You may bid {choices}.{nil_note}{notes}"),
    "answer.legal_draw": T("Keep or discard the {card}."),
    "answer.legal_blind_nil": T("Say yes to bid blind nil, or no to look at your cards."),
    "answer.legal_exchange": T("Mark up to {limit} cards to give back, then confirm."),
    "answer.nothing_to_do": T("Nothing for you to do now. {turn}"),
    "answer.bids": T("Bids: {bids}."),
    "answer.last_trick": T("Last trick, won by {seat}: {plays}."),
    "answer.no_last_trick": T("No trick has been completed yet this hand."),
    "answer.history": T("Recent messages: {lines}"),
    "answer.history_empty": T("Nothing has been said yet."),
    "turn.yours": T("Your turn to {task}."),
    "turn.other": T("{whose} turn to {task}."),
    "turn.over": T("The match is over."),
    "cursor.card": T("{card}{notes}", brief="{rank}{notes}"),
    "cursor.suit_card": T("{card}{notes}", brief="{rank} of {suit}{notes}"),
    "cursor.empty": T("You hold no cards."),
    "cursor.edge_high": T("Highest {suit}: {card}{notes}", brief="{rank}{notes}"),
    "cursor.edge_low": T("Lowest {suit}: {card}{notes}", brief="{rank}{notes}"),
    "mark.on": T("Marked the {card} to give back. {count} marked."),
    "mark.off": T("Unmarked the {card}. {count} marked."),
    "mark.full": T("You may give back at most {limit} cards; unmark one first."),
    "mark.not_now": T("Marking cards is only for the blind nil exchange."),
    # ----- bids typed on the keyboard ----------------------------------------
    "bid.typed": T("{bid}. Press {confirm} to bid.", brief="{bid}."),
    "bid.nothing_typed": T("Type your bid with the digit keys, or {nil} for nil, "
                           "then press {confirm}."),
    "bid.not_now": T("This is not the time to bid. {turn}"),
    # ----- questions ---------------------------------------------------------
    "question.nil": T("Bid nil?"),
    "question.new_game": T("Start a new game? This match will be abandoned."),
    "question.yes_no": T("{question} Yes or no?", brief="{question}"),
    "question.none": T("There is no question to answer."),
    "question.cancelled": T("Cancelled."),
    "sorry": T("Sorry, say again.",
               verbose="Sorry, I did not understand {heard}. Say again, or ask what you can "
                       "say."),
    # ----- errors ------------------------------------------------------------
    "error.illegal": T("{reason}"),
    "error.not_your_turn": T("Not your turn. {turn}"),
    "error.no_card": T("There is no card under the cursor."),
    "error.internal": T("Something went wrong ({error}). Your game is saved: play on, or "
                        "press {quit} to quit."),
    "error.unknown_key": T("{key} does nothing here. Press {help} for the keys.",
                           brief="{key}: no action."),
    # ----- the session itself ------------------------------------------------
    "session.welcome": T("Voice Spades. {rules} rules, {players} players{level}. {seating} "
                         "Press {help} for help at any time.",
                         brief="Voice Spades, {rules}. {help} for help."),
    "session.seating_partner": T("You sit South; your partner is North."),
    "session.seating": T("You sit South."),
    "session.level": T(", {level} level"),
    "session.no_speech": T("Speech is off, so there is no speaking rate to change."),
    "session.resumed": T("Resuming your game: hand {hand}, {where}. Scores: {scores}.",
                         brief="Resuming: hand {hand}, {where}."),
    "session.new_game": T("New game."),
    "session.saved_quit": T("Game saved. Goodbye."),
    "session.input_ended": T("Input ended. Game saved. Goodbye."),
    "session.verbosity": T("Verbosity {level}."),
    "session.faster": T("Faster."),
    "session.slower": T("Slower."),
    "session.listen_unavailable": T("Voice input is not available; use the keys."),
    "session.what_can_i_say": T("Voice input is not on. Press {help} for the keys."),
    "session.save_failed": T("The game could not be saved: {reason}. Play continues."),
    "session.stats": T("Your record with {rules} rules: {wins} won, {losses} lost."),
    "help.keys": T("Keys: {keys}."),
    # ----- what each key action does (for the help list) ---------------------
    "action.bid": T("your bid"),
    "action.table": T("cards on the table"),
    "action.suit_led": T("suit led"),
    "action.game_info": T("bids and tricks"),
    "action.scores": T("scores and bags"),
    "action.whose_turn": T("whose turn"),
    "action.hand": T("your hand"),
    "action.legal": T("what you can play"),
    "action.bids": T("all bids"),
    "action.last_trick": T("last trick"),
    "action.history": T("recent messages"),
    "action.help": T("this help"),
    "action.next_suit": T("next suit"),
    "action.previous_suit": T("previous suit"),
    "action.next_card": T("next card"),
    "action.previous_card": T("previous card"),
    "action.highest": T("highest of the suit"),
    "action.lowest": T("lowest of the suit"),
    "action.jump_spades": T("spades"),
    "action.jump_hearts": T("hearts"),
    "action.jump_diamonds": T("diamonds"),
    "action.jump_clubs": T("clubs"),
    "action.play": T("play the card, make the typed bid, or confirm"),
    **{f"action.digit_{d}": T(f"digit {d}") for d in range(10)},
    "action.digits": T("type a bid"),
    "action.nil": T("bid nil"),
    "action.keep": T("keep the card shown"),
    "action.discard": T("discard the card shown"),
    "action.mark": T("mark a card for the blind nil exchange"),
    "action.yes": T("yes"),
    "action.no": T("no"),
    "action.cancel": T("silence, or cancel"),
    "action.repeat": T("repeat"),
    "action.silence": T("silence"),
    "action.faster": T("faster speech"),
    "action.slower": T("slower speech"),
    "action.verbosity": T("brief, normal or verbose"),
    "action.save_and_quit": T("save and quit"),
    "action.new_game": T("new game"),
    "action.listen": T("listen for a voice command"),
    "help.key": T("{keys} {action}"),
    "help.question": T("When asked a question: {keys}"),
    # ----- keymap files and key names ------------------------------------------
    "keymap.unreadable": T("Your keymap {name} could not be read ({error}); using the default "
                           "keys."),
    "keymap.missing": T("There is no keymap file {path}; using the default keys."),
    "keymap.no_key_left": T("{source}: {action} has no key now: your keymap took {keys}."),
    "keymap.not_toml": T("{source}: {error}; using the default keys."),
    "keymap.toml_line": T("line {line}: {error}"),
    "keymap.section": T("{source} line {line}: '{section}' is not a keymap section; the "
                        "sections are [keys] and [question]."),
    "keymap.entry": T("{source} line {line}: {problem}; {fallback}."),
    "keymap.ignored": T("it is ignored"),
    "keymap.default_kept": T("{action} keeps its default keys"),
    "keymap.not_an_action": T("'{action}' is not an action here"),
    "keymap.bad_value": T("give a key name in quotes, or a list of them"),
    "keymap.bound_twice": T("{key} is already bound to {other} on line {line}"),
    "keymap.listed_twice": T("{key} is listed twice"),
    "key.empty": T("an empty key name"),
    "key.bad_modifier": T("'{text}' is not a key: modifiers are shift and ctrl"),
    "key.modifier_letter": T("'{text}' is not a key: {mod} goes with a letter, like {mod}+n"),
    "key.reserved": T("'{text}' cannot be bound: the terminal keeps that key"),
    "key.unknown": T("'{text}' is not a key name"),
    "key.unsendable": T("'{text}' is not a key a terminal can send"),
    "key.that_key": T("That key"),
    # ----- saved files ---------------------------------------------------------
    "storage.unreadable": T("the file could not be read ({error})."),
    "storage.not_json": T("the file is not readable JSON ({error})."),
    "storage.not_a_save": T("this is not a voice-spades save file."),
    "storage.no_settings": T("the file has no game settings."),
    "storage.not_stats": T("this is not a voice-spades statistics file."),
    "storage.no_records": T("the file has no records."),
    "storage.bad_record": T("the record for {name} is damaged."),
    "storage.bad_setting": T("the saved setting {name} is damaged."),
    "storage.bad_level": T("the saved level {level} is unknown."),
    "storage.nowhere": T("nowhere (it could not be moved)"),
    # ----- start-up problems -------------------------------------------------
    "setup.speech_unavailable": T("{reason}"),
    "setup.save_corrupt": T("Your saved game could not be read: {reason} It was moved aside "
                            "to {name}; starting a new game."),
    "setup.stats_corrupt": T("The statistics file could not be read: {reason} It was moved "
                             "aside to {name}; starting a new record."),
    "setup.keymap_problem": T("{problem}"),
    "setup.options_ignored": T("A saved game is in progress, so {options} were not used. "
                               "Start with --new for a new game."),
    "setup.no_terminal": T("No terminal on standard input: reading key names from it, one or "
                           "more per line."),
}
"""Every message of the game."""


def render(message_id: str, verbosity: Verbosity = Verbosity.NORMAL, /,
           **params: object) -> str:
    """The message ``message_id`` at ``verbosity`` with its fields filled in.

    Raises KeyError for an unknown id or a missing field: both are programming errors.
    """
    return CATALOG[message_id].pick(verbosity).format(**params)
