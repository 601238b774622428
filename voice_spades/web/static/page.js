// The page of voice_spades' table: shows the state the game sends, sends keys, cards and
// bids back. Every word comes from the game, in the player's language.
"use strict";

(function () {
  const NAMED = {
    Enter: "enter", Escape: "escape", " ": "space", Tab: "tab", Backspace: "backspace",
    Delete: "delete", Insert: "insert", ArrowUp: "up", ArrowDown: "down",
    ArrowLeft: "left", ArrowRight: "right", Home: "home", End: "end",
    PageUp: "page_up", PageDown: "page_down"
  };
  for (let n = 1; n <= 12; n++) NAMED["F" + n] = "f" + n;

  const $ = (id) => document.getElementById(id);
  const token = new URLSearchParams(location.search).get("t") || "";
  let socket = null;
  let keys = new Set();
  let chatKeys = new Set();
  let texts = {};
  let ack = false;
  let followCursor = true;
  let lastSeq = 0;

  function keyName(e) {
    if (e.isComposing || e.altKey || e.metaKey) return null;
    const k = e.key;
    if (e.ctrlKey) return /^[a-zA-Z]$/.test(k) ? "ctrl+" + k.toLowerCase() : null;
    if (k in NAMED) {
      const name = NAMED[k];
      return e.shiftKey && /^f\d+$/.test(name) ? "shift+" + name : name;
    }
    if (k.length !== 1) return null;
    if (/^[a-zA-Z]$/.test(k)) return e.shiftKey ? "shift+" + k.toLowerCase() : k;
    return k;
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  // A key the page leaves to the browser: typing in a field, and Enter or Space on a
  // control other than a card (a switch, a bid button, a link), which they activate.
  function native(e, name) {
    const target = e.target;
    if (!target || !target.tagName) return false;
    if (["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return true;
    const control = ["BUTTON", "A"].includes(target.tagName) && !$("hand").contains(target);
    return control && (name === "enter" || name === "space");
  }

  function onKey(e) {
    const name = keyName(e);
    if (name === null || !keys.has(name) || native(e, name)) return;
    if (chatKeys.has(name) && !$("chat").hidden) {  // the chat key: to the message field
      e.preventDefault();
      $("chat-text").focus();
      return;
    }
    e.preventDefault();
    e.stopPropagation();
    followCursor = true;
    send({t: "key", key: name});
  }

  function stopActivation(e) {
    const name = keyName(e);
    if (name !== null && keys.has(name) && !native(e, name)) e.preventDefault();
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    node.className = className;
    node.textContent = text;
    return node;
  }

  function cardFace(node, card) {
    node.textContent = "";
    node.classList.add("card", "suit-" + card.suit);
    const rank = element("span", "rank", card.rank);
    const letter = element("span", "suit-letter", card.suit);
    const symbol = element("span", "suit-symbol", card.symbol);
    // The face is an abbreviation ("Q H ♥") of the card's name, which the hand's
    // cards carry as their text (read by screen readers, hidden on screen): a name
    // from content, not an aria-label the visible letters would not be part of.
    for (const part of [rank, letter, symbol]) part.setAttribute("aria-hidden", "true");
    const name = document.createElement("span");
    name.className = "card-name";
    node.append(rank, letter, symbol, name);
    node.dataset.code = card.code;
  }

  function renderHand(state) {
    const list = $("hand");
    const have = new Map();
    for (const item of list.children) have.set(item.dataset.code, item);
    const codes = state.hand.map((c) => c.code);
    if (codes.join() !== [...have.keys()].join()) {
      list.textContent = "";
      have.clear();
      for (const card of state.hand) {
        const item = document.createElement("li");
        item.dataset.code = card.code;
        const button = document.createElement("button");
        button.type = "button";
        cardFace(button, card);
        button.addEventListener("click", () => {
          followCursor = true;
          send({t: "card", card: card.code});
        });
        item.append(button);
        list.append(item);
        have.set(card.code, item);
      }
    }
    const anyCursor = state.hand.some((c) => c.cursor);
    state.hand.forEach((card, index) => {
      const button = have.get(card.code).firstElementChild;
      button.querySelector(".card-name").textContent = card.label;
      button.classList.toggle("playable", card.playable);
      button.classList.toggle("unplayable", !card.playable);
      button.classList.toggle("cursor", card.cursor);
      button.classList.toggle("marked", card.marked);
      if (card.cursor) button.setAttribute("aria-current", "true");
      else button.removeAttribute("aria-current");
      button.tabIndex = card.cursor || (!anyCursor && index === 0) ? 0 : -1;
    });
    const inHand = list.contains(document.activeElement);
    const idle = document.activeElement === null || document.activeElement === document.body;
    if (followCursor || inHand || idle) {
      const cursor = list.querySelector("button.cursor");
      if (cursor && document.activeElement !== cursor) cursor.focus();
    }
    followCursor = false;
  }

  function renderSeats(state) {
    const list = $("seats");
    list.textContent = "";
    for (const seat of state.seats) {
      const item = document.createElement("li");
      item.className = "seat" + (seat.turn ? " turn" : "") + (seat.you ? " you" : "");
      item.dataset.seat = String(seat.seat);
      if (seat.turn) item.setAttribute("aria-current", "true");
      const name = element("p", "seat-name", seat.name);
      if (seat.turn) {
        const mark = element("span", "turn-mark", "\u25B6 " + state.turn_mark);
        name.prepend(mark);
      }
      const bid = element("p", "seat-bid", seat.bid_text);
      const tricks = element("p", "seat-tricks", seat.tricks_text);
      const played = document.createElement("p");
      played.className = "seat-card";
      if (seat.card) {
        const card = document.createElement("span");
        cardFace(card, seat.card);
        card.setAttribute("role", "img");
        card.setAttribute("aria-label", seat.card.name);
        played.append(card);
        if (seat.led) played.classList.add("led");
      }
      item.append(name, bid, tricks, played);
      list.append(item);
    }
  }

  function renderScores(state) {
    const body = $("scores").tBodies[0];
    body.textContent = "";
    $("scores-area").hidden = state.scores.length === 0;  // no empty table before a game
    for (const side of state.scores) {
      const row = body.insertRow();
      const head = document.createElement("th");
      head.scope = "row";
      head.textContent = side.name;
      row.append(head);
      row.insertCell().textContent = String(side.score);
      row.insertCell().textContent = String(side.bags);
    }
  }

  function renderBids(state) {
    const area = $("bid-area");
    area.hidden = state.bids.length === 0;
    $("typed-bid").textContent = state.typed_bid;
    const box = $("bid-buttons");
    const wanted = state.bids.map((b) => b.tricks).join();
    if (box.dataset.bids === wanted) return;
    box.dataset.bids = wanted;
    box.textContent = "";
    for (const bid of state.bids) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "bid";
      button.textContent = bid.text;
      button.setAttribute("aria-label", bid.label);
      button.addEventListener("click", () => send({t: "bid", bid: bid.tricks}));
      box.append(button);
    }
  }

  function speak(text) {
    if (!$("speech-switch").classList.contains("on") || !window.speechSynthesis) return;
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = document.documentElement.lang;
    window.speechSynthesis.speak(utterance);
  }

  function renderLog(state) {
    const log = $("log");
    if (state.full_log) log.textContent = "";
    for (const line of state.lines) {
      const item = document.createElement("p");
      item.textContent = line.text;
      item.dataset.n = String(line.n);
      item.dataset.id = line.id;
      if (line.error) {
        item.className = "error";
        $("alert").textContent = line.text;
      }
      log.append(item);
      if (!state.full_log) speak(line.text);
    }
    while (log.children.length > 200) log.firstElementChild.remove();
  }

  function render(state) {
    lastSeq = state.seq;
    document.body.dataset.phase = state.phase;
    document.body.dataset.seq = String(state.seq);
    document.body.dataset.hand = String(state.hand_number);
    document.body.dataset.act = String(state.you_act);
    $("turn").textContent = state.turn;
    $("turn").classList.toggle("mine", state.my_turn);
    const question = $("question");
    question.hidden = !state.question;
    question.textContent = state.question || "";
    const reader = $("reader-switch");
    reader.setAttribute("aria-pressed", String(state.reader));
    reader.classList.toggle("on", state.reader);
    renderSeats(state);
    renderScores(state);
    renderBids(state);
    renderLog(state);
    renderHand(state);
    if (ack) send({t: "rendered", seq: state.seq});
  }

  function lobby(message) {
    const log = $("log");
    for (const text of message.lines) {
      const item = document.createElement("p");
      item.textContent = text;
      log.append(item);
      speak(text);
      $("turn").textContent = text;
    }
  }

  function join(e) {
    e.preventDefault();
    const code = $("join-code").value.replace(/\s+/g, "");
    const choice = document.querySelector("#join-seats input:checked");
    const value = choice ? choice.value : "";
    $("join-problem").textContent = "";
    $("join-button").disabled = true;
    send({t: "join", code: code, name: $("join-name").value,
          watch: value === "watch",
          seat: value === "" || value === "watch" ? null : Number(value)});
  }

  function toggle(button) {
    const on = button.getAttribute("aria-pressed") !== "true";
    button.setAttribute("aria-pressed", String(on));
    button.classList.toggle("on", on);
    return on;
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const lang = new URLSearchParams(location.search).get("lang") || document.documentElement.lang;
    socket = new WebSocket(scheme + location.host + "/page/ws?t=" + encodeURIComponent(token) +
                           "&lang=" + encodeURIComponent(lang));
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.t === "hello") {
        keys = new Set(message.keys);
        chatKeys = new Set(message.chat_keys || []);
        texts = message.texts;
        ack = Boolean(message.ack);
      } else if (message.t === "state" && message.seq > lastSeq) {
        $("join").hidden = true;
        $("chat").hidden = document.documentElement.dataset.mode !== "friend";
        render(message);
      } else if (message.t === "lobby") {
        $("join").hidden = true;
        lobby(message);
      } else if (message.t === "refused") {
        $("join-problem").textContent = message.text;
        $("join-button").disabled = false;
      }
    });
    socket.addEventListener("close", () => {
      $("alert").textContent = texts.connection_lost || "";
      document.body.dataset.closed = "true";
    });
  }

  function start() {
    const friend = document.documentElement.dataset.mode === "friend";
    $("join").hidden = !friend;
    $("languages").hidden = !friend;
    $("reader-switch").hidden = friend;
    $("speech-switch").hidden = !friend;
    $("join").addEventListener("submit", join);
    $("chat").addEventListener("submit", (e) => {
      e.preventDefault();
      const text = $("chat-text").value.trim();
      if (text) send({t: "chat", text: text});
      $("chat-text").value = "";
    });
    const stored = window.localStorage ? localStorage.getItem("voice-spades-theme") : null;
    const systemDark = window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches;
    if (stored === "dark" || (stored === null && systemDark)) {
      document.documentElement.dataset.theme = "dark";
      $("theme-switch").setAttribute("aria-pressed", "true");
    }
    $("theme-switch").addEventListener("click", (e) => {
      const dark = toggle(e.currentTarget);
      document.documentElement.dataset.theme = dark ? "dark" : "light";
      if (window.localStorage) localStorage.setItem("voice-spades-theme", dark ? "dark" : "light");
    });
    $("reader-switch").addEventListener("click", (e) => {
      send({t: "reader", on: e.currentTarget.getAttribute("aria-pressed") !== "true"});
    });
    $("speech-switch").addEventListener("click", (e) => {
      if (!toggle(e.currentTarget) && window.speechSynthesis) window.speechSynthesis.cancel();
    });
    document.addEventListener("keydown", onKey, true);
    document.addEventListener("keyup", stopActivation, true);
    connect();
  }

  document.addEventListener("DOMContentLoaded", start);
})();
