// A table: a seat's page (with its token), the spectator's (without), or a replay.
// The board is drawn on the server from the seat's snapshot (GET /tables/{id}/board) whenever
// the WebSocket says something changed; the page keeps no game state of its own.
import { call, reason, toast, esc } from "./api.js";

const root = document.getElementById("table");
const board = document.getElementById("board");
const menu = document.getElementById("menu");
const conn = document.getElementById("conn");
const tableId = root.dataset.table;
const token = root.dataset.token;
const mode = root.dataset.mode;
const q = token ? `?token=${encodeURIComponent(token)}` : "";
const apiBase = `/api/tables/${encodeURIComponent(tableId)}`;

const seatText = root.dataset.seat;
const seat = seatText === "" || seatText === undefined ? null : Number(seatText);
const game = root.dataset.game;
let shown = -1;           // the version of the board on screen (actions name it)
let known = -1;           // the newest version a snapshot told us of
let inflight = false;     // a board request is on its way
let again = false;        // another change came while it was
let busy = false;         // an action is on its way

function setConn(text) { if (conn) conn.textContent = text; }

/** Fetch the seat's board (drawn from its snapshot on the server) and show it. One request
 * at a time; changes that arrive meanwhile are folded into one more request. */
async function refresh() {
  if (inflight) { again = true; return; }
  inflight = true;
  const res = await call("GET", `/tables/${encodeURIComponent(tableId)}/board${q}`, undefined, "text");
  inflight = false;
  const version = res.ok ? Number(/data-version="(\d+)"/.exec(res.data)?.[1] ?? -1) : -1;
  if (res.ok && version === shown) {
    // the same snapshot again: keep the page as it is (and the player's focus and menu)
  } else if (res.ok) {
    place(res.data);
    const frame = board.querySelector(".frame");
    shown = Number(frame?.dataset.version ?? -1);
    known = Math.max(known, shown);
    const myTurn = frame?.dataset.myTurn === "true";
    const over = !!board.querySelector("[data-result]");
    document.title = over ? `Game over — ${game} — timelord`
      : myTurn ? "(•) Your turn — timelord" : `${game} — timelord`;
    const result = board.querySelector("[data-result]");
    if (result && !result.querySelector(".replay-link")) {
      const a = document.createElement("a");
      a.className = "replay-link";
      a.href = `/tables/${encodeURIComponent(tableId)}/replay`;
      a.textContent = "Replay this game step by step";
      result.append(a);
    }
  } else {
    toast(`Cannot draw the board: ${reason(res.data)}`);
  }
  if (again) { again = false; refresh(); }
}

/** A snapshot arrived (WebSocket or an action's answer): redraw if it is news. */
function told(snapshot) {
  if (typeof snapshot.version !== "number") return;
  // an undo takes the version back, so any version other than the one shown is news
  known = snapshot.version;
  if (known !== shown) refresh();
}

/** Board elements that stand for one thing (a tile, a location, a seat), by a stable key. */
function elements() {
  return [...board.querySelectorAll(".board-area [data-tile], .board-area [data-seat]")]
    .map((el) => [`${el.dataset.tile ?? ""}/${el.dataset.seat ?? ""}`, el]);
}
/** What an element shows, leaving out what only says who may act now. */
function look(el) {
  const cls = [...el.classList].filter((c) => !["can-act", "to-move", "target", "changed"].includes(c));
  return `${cls.join(" ")}|${el.textContent.replace("◀ to move", "")}`;
}
function marks() { return new Map(elements().map(([k, el]) => [k, look(el)])); }

/** Put new board HTML in place, keeping keyboard focus on the same control if it remains. */
function place(html) {
  const focused = document.activeElement;
  const key = focused && board.contains(focused)
    ? (focused.dataset.action ?? focused.dataset.actions ?? focused.id) : null;
  closeMenu();
  const why = document.getElementById("why");
  if (why) why.hidden = true;   // a reason given for the board before no longer holds
  const before = marks();
  board.innerHTML = html;
  // What changed glows briefly, so a player sees what the last move touched.
  if (before.size) {
    for (const [key, el] of elements()) {
      if (before.get(key) !== look(el)) el.classList.add("changed");
    }
  }
  if (key) {
    const same = [...board.querySelectorAll("[data-action],[data-actions],[id]")]
      .find((el) => (el.dataset.action ?? el.dataset.actions ?? el.id) === key);
    (same ?? board.querySelector("[data-action],[data-actions]"))?.focus();
  }
}

async function act(action) {
  if (busy || shown < 0) return;
  busy = true;
  closeMenu();
  const res = await call("POST", `${apiBase}/actions${q}`, { version: shown, action });
  busy = false;
  if (res.ok) {
    told(res.data);
    document.dispatchEvent(new CustomEvent("table-answer", { detail: res.data }));
  } else { toast(`Refused: ${reason(res.data)}`); refresh(); }
}

// While a card's menu is open, the board elements its moves act on are outlined and a click
// on one makes that move (a card, then its target), as the menu's own buttons do.
let picks = new Map();    // data-tile -> action
function closeMenu() {
  menu.hidden = true;
  menu.innerHTML = "";
  picks = new Map();
  board.querySelectorAll(".pick").forEach((el) => el.classList.remove("pick"));
}

let opener = null;        // the board element whose menu is open, to return focus to
function openMenu(el) {
  opener = el;
  const items = JSON.parse(el.dataset.actions);
  menu.innerHTML = `<p class="menu-title">${esc(el.getAttribute("aria-label") ?? "Choose")}</p>` +
    items.map((it, i) =>
      `<button role="menuitem" data-action="${esc(JSON.stringify(it.action))}"><kbd>${i + 1}</kbd> ${esc(it.label)}</button>`).join("") +
    `<button class="cancel" data-cancel="1">Cancel (Esc)</button>`;
  const r = el.getBoundingClientRect();
  const host = root.getBoundingClientRect();
  menu.style.left = `${Math.max(0, r.left - host.left)}px`;
  menu.style.top = `${r.bottom - host.top + 4}px`;
  menu.hidden = false;
  menu.querySelector("button")?.focus();
  for (const it of items) {
    if (it.target === undefined || it.target === el.dataset.tile || picks.has(it.target)) continue;
    picks.set(it.target, it.action);
    board.querySelectorAll(`[data-tile="${CSS.escape(it.target)}"]`).forEach((t) => t.classList.add("pick"));
  }
}

root.addEventListener("click", (e) => {
  if (mode !== "play") return;
  const cancel = e.target.closest("[data-cancel]");
  if (cancel) { closeMenu(); return; }
  const toggle = e.target.closest("[data-pick]");
  if (toggle) { e.preventDefault(); pickCard(toggle); return; }
  const picked = e.target.closest(".pick[data-tile]");
  if (picked && picks.has(picked.dataset.tile)) {
    e.preventDefault(); act(picks.get(picked.dataset.tile)); return;
  }
  const one = e.target.closest("[data-action]");
  if (one && root.contains(one)) { e.preventDefault(); act(JSON.parse(one.dataset.action)); return; }
  const many = e.target.closest("[data-actions]");
  if (many) { e.preventDefault(); openMenu(many); return; }
  if (!menu.contains(e.target)) closeMenu();
  const ask = e.target.closest("[data-explain]");
  if (ask && token) explain(JSON.parse(ask.dataset.explain));
});

// A choice of several cards: toggles select cards; the confirm button takes the action of
// the one legal choice made of exactly the selected cards (and is disabled otherwise).
function pickCard(toggle) {
  const box = toggle.closest("[data-choices]");
  toggle.setAttribute("aria-pressed", toggle.getAttribute("aria-pressed") === "true" ? "false" : "true");
  const chosen = [...box.querySelectorAll('[data-pick][aria-pressed="true"]')]
    .map((b) => Number(b.dataset.pick)).sort((a, b) => a - b);
  const same = (cards) => cards.length === chosen.length
    && [...cards].sort((a, b) => a - b).every((c, i) => c === chosen[i]);
  const match = JSON.parse(box.dataset.choices).find((it) => same(it.action.cards ?? []));
  const confirm = box.querySelector(".confirm");
  const label = box.querySelector(".choice-label");
  if (match) {
    confirm.dataset.action = JSON.stringify(match.action);
    confirm.disabled = false;
    label.textContent = match.label;
  } else {
    delete confirm.dataset.action;
    confirm.disabled = true;
    label.textContent = chosen.length ? "Not a choice you can make: change the cards." : "Pick cards.";
  }
}

/** Something was clicked that offers no move now: ask the engine why that move is refused
 * (the explain route changes nothing) and say so. */
async function explain(action) {
  const res = await call("POST", `${apiBase}/explain${q}`, { action });
  const why = document.getElementById("why");
  const text = !res.ok ? reason(res.data)
    : res.data.legal ? "That move is allowed; choose it from the list of moves."
    : `Not now: ${res.data.reason}${res.data.rule ? ` (rule ${res.data.rule})` : ""}`;
  if (why) { why.textContent = text; why.hidden = false; }
}

document.addEventListener("keydown", (e) => {
  if (e.target.matches?.("input, select, textarea")) return;
  if (e.key === "Escape") {
    const wasOpen = !menu.hidden;
    closeMenu();
    if (wasOpen) opener?.focus();
    return;
  }
  if ((e.key === "Enter" || e.key === " ")
      && e.target.matches?.("[data-action],[data-actions],[data-explain]")
      && e.target.tagName !== "BUTTON") {
    e.preventDefault(); e.target.click(); return;
  }
  if (mode === "replay") {
    if (e.key === "ArrowRight") replayStep(+1);
    if (e.key === "ArrowLeft") replayStep(-1);
    return;
  }
  if (e.key === "l" || e.key === "L") { document.getElementById("log")?.focus(); return; }
  if (/^[1-9]$/.test(e.key)) {
    // a number picks from the open menu, else the move of that number in the list
    const b = menu.hidden
      ? board.querySelector(`#legal [data-key="${e.key}"]`)
      : menu.querySelectorAll("[data-action]")[Number(e.key) - 1];
    if (b) { e.preventDefault(); b.click(); }
  }
});

// life.js changed the table (an undo, a seat taken back): draw it again
document.addEventListener("table-changed", () => { shown = -1; refresh(); });

// Live updates: the WebSocket pushes each new snapshot; polling covers a dropped socket.
let socket = null;
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  try {
    socket = new WebSocket(`${proto}://${location.host}${apiBase}/ws${q}${q ? "&" : "?"}seats=1`);
  } catch { socket = null; return; }
  socket.onopen = () => setConn("live");
  socket.onmessage = (m) => {
    let data;
    try { data = JSON.parse(m.data); } catch { return; }
    if (data && data.view !== undefined && typeof data.version === "number") {
      told(data);
      document.dispatchEvent(new CustomEvent("table-snapshot", { detail: data }));
    } else if (data && data.type) {
      // the table's life (chat, seats, rematch): life.js shows it
      document.dispatchEvent(new CustomEvent("table-message", { detail: data }));
    } else if (data && (data.code || data.reason)) toast(reason(data));
  };
  socket.onclose = () => { setConn("reconnecting…"); socket = null; setTimeout(connect, 1500); };
}

function poll() {
  if (socket && socket.readyState === WebSocket.OPEN) return;
  refresh();
}

// Replay: a finished game drawn step by step (on the server, from its public record) for
// any seat or a spectator.
let step = 0;
let steps = 0;
let drawing = 0;          // a counter, so a slow replay step never overwrites a newer one
async function replayDraw() {
  const sel = document.getElementById("replay-seat");
  const who = sel.value === "" ? "" : `&seat=${encodeURIComponent(sel.value)}`;
  const mine = ++drawing;
  const res = await call("GET", `/tables/${encodeURIComponent(tableId)}/replay/board?step=${step}${who}`);
  if (mine !== drawing) return;
  if (!res.ok) {
    board.innerHTML = `<p class="muted">No replay: ${esc(reason(res.data))}</p>`;
    return;
  }
  steps = res.data.steps;
  step = res.data.step;
  if (sel.options.length === 1) {
    for (let i = 0; i < res.data.players; i++) {
      const o = document.createElement("option");
      o.value = i; o.textContent = res.data.names?.[i] ?? `Seat ${i}`;
      sel.append(o);
    }
  }
  place(res.data.html);
  const range = document.getElementById("step");
  range.max = steps; range.value = step;
  document.getElementById("step-label").textContent = `step ${step} of ${steps}`;
}
function replayStep(delta) { step = Math.min(Math.max(step + delta, 0), steps); replayDraw(); }

async function startReplay() {
  document.getElementById("replay-seat").addEventListener("change", replayDraw);
  document.getElementById("first").onclick = () => { step = 0; replayDraw(); };
  document.getElementById("last").onclick = () => { step = steps; replayDraw(); };
  document.getElementById("prev").onclick = () => replayStep(-1);
  document.getElementById("next").onclick = () => replayStep(+1);
  document.getElementById("step").oninput = (e) => { step = Number(e.target.value); replayDraw(); };
  setConn("replay");
  await replayDraw();
}

async function start() {
  if (mode === "replay") { await startReplay(); return; }
  const who = document.getElementById("who");
  const title = root.dataset.gameName || game;
  if (who) who.textContent = seat === null ? `Watching a table of ${title}` : `You play at a table of ${title}`;
  await refresh();
  connect();
  setInterval(poll, 2000);
}

start();

// A card that acts on board elements outlines them while it is pointed at or focused.
function outline(el, on) {
  const ids = (el?.dataset.targets ?? "").split(" ").filter(Boolean);
  for (const id of ids) {
    board.querySelectorAll(`[data-tile="${CSS.escape(id)}"]`).forEach((t) => t.classList.toggle("target", on));
  }
}
for (const [ev, on] of [["mouseover", true], ["mouseout", false], ["focusin", true], ["focusout", false]]) {
  board.addEventListener(ev, (e) => outline(e.target.closest?.("[data-targets]"), on));
}

// The notebook's odds column can be hidden (some players like to deduce alone): "n" or button.
function toggleOdds() { document.body.classList.toggle("hide-odds"); }
root.addEventListener("click", (e) => { if (e.target.closest?.("[data-toggle=odds]")) toggleOdds(); });
document.addEventListener("keydown", (e) => {
  if ((e.key === "n" || e.key === "N") && !e.target.matches?.("input, select, textarea")) toggleOdds();
});
