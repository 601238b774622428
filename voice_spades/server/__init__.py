"""The table server: authoritative, it holds each table's match and seed, takes
intents from clients and sends each viewer its own numbered stream (protocol version 1,
:mod:`voice_spades.protocol`).

Lowest first: ``store`` (the store protocol) and ``store_sqlite`` (the default store),
``streams`` (a viewer's numbered messages), ``table_core`` (a table rebuilt from its
log: checks, seats, streams; no I/O), ``limits`` (message rate, wrong codes, chat),
``live_table`` (a served table's connections, bots and timers), ``hub`` (every table,
on one asyncio loop: store, then apply, then send; bots and grace periods),
``connection`` (one client's WebSocket) and ``app`` (Starlette app, uvicorn runner).
The server never words anything: refusals are ``net.*`` catalog ids with fields,
which each client words in its own language.
"""
