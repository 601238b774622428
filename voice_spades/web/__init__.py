"""The table as a large-print page in a browser: ``voice-spades --web`` for the local
game, and a table server's page for a friend without the game.

The page is one more client of the table: it is sent the player's own view, every value
already named in the player's language (:mod:`~voice_spades.web.page_state`), and sends
back keys (through the keymap, as the terminal's), cards and bids. Its files are in
``static/``, shipped in the package: no CDN, no network.

The page's DOM (``static/page.html``, filled by ``static/page.js``):
``header#top`` (``h1#title``; ``p#turn.turn-line``, ``.mine`` on the player's turn;
``#switches`` with ``button#reader-switch``, ``#speech-switch``, ``#theme-switch``, each
``.switch`` with ``aria-pressed``; ``html[data-theme=light|dark]``); ``main#table``
holds ``form#join`` (a friend's code and seat, hidden locally),
``section#seats-area > ul#seats > li.seat[data-seat]`` (``.turn`` and
``aria-current`` on the seat to act, ``.you``; ``p.seat-name`` with
``span.turn-mark``, ``p.seat-bid``, ``p.seat-tricks``, ``p.seat-card`` holding a
``span.card``; ``.led`` on the card led), ``section#hand-area > ul#hand > li >
button.card`` (``data-code`` "QH"; ``.playable``/``.unplayable``, ``.cursor`` with
``aria-current`` and the only ``tabindex=0``, ``.marked``; ``aria-label`` "queen of
hearts, playable"), ``p#question``, ``section#bid-area`` (``#typed-bid``,
``#bid-buttons > button.bid``), ``section#scores-area > table#scores`` (hidden until
there are scores) and ``section#log-area`` (``div#log[role=log][aria-live=polite] >
p``, ``.error`` on refusals; ``p#alert[role=alert]``) and, for a friend once seated, ``form#chat``
(``input#chat-text``, ``button#chat-send``). Every card, on the table or in the hand, is
``.card.suit-S|H|D|C`` with ``span.rank``, ``span.suit-letter`` and
``span.suit-symbol``. ``body[data-seq]`` is the last state shown, ``body[data-phase]``
its phase.
"""
