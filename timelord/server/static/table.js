// A table: a seat's page (with its token), the spectator's (without), or a replay.
// The board is drawn on the server from the seat's snapshot (GET /tables/{id}/board) whenever
// the WebSocket says something changed; the page keeps no game state of its own beyond the
// snapshot the socket's deltas build.
import { call, reason, toast, ruleLink, UNREACHABLE } from "./api.js";
import { h, fill, fromServer } from "./dom.js";
import { startReview, hintButton } from "./coach.js";
import { capture, play } from "./motion.js";
import { cue } from "./sound.js";
import { render as renderLog, glossary, announce, drawers } from "./log.js";

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
let lastHeard = 0;        // when the server last told this page anything (socket or fetch)
let unreachable = false;  // the last request found no server at all

//: A socket that has said nothing for this long is checked over HTTP (a heartbeat); a click
//: after this much silence first makes sure the page shows the table as it is now.
const HEARTBEAT_MS = 10000;
const CLICK_FRESH_MS = 5000;

function setConn(text) { if (conn) conn.textContent = text; }
function heard() { lastHeard = Date.now(); if (unreachable) { unreachable = false; setConn("live"); } }
function lost() {
  unreachable = true;
  setConn("cannot reach the server: retrying…");
  toast(UNREACHABLE);
}

/** Fetch the seat's board (drawn from its snapshot on the server) and show it. One request
 * at a time; changes that arrive meanwhile are folded into one more request. */
async function refresh() {
  if (inflight) { again = true; return; }
  inflight = true;
  // the log's sentences the page holds are not sent again (unless the seats' names changed)
  const log = snap && logHeld > 0 && heldNames === seatNames() ? `${q ? "&" : "?"}log=${logHeld}` : "";
  const res = await call("GET", `/tables/${encodeURIComponent(tableId)}/board${q}${log}`, undefined, "text");
  inflight = false;
  if (res.status === 0) { lost(); again = false; return; }
  heard();
  const version = res.ok ? Number(/data-version="(\d+)"/.exec(res.data)?.[1] ?? -1) : -1;
  if (res.ok && version === shown) {
    // the same snapshot again: keep the page as it is (and the player's focus and menu)
  } else if (res.ok) {
    place(res.data);
    const frame = board.querySelector(".frame");
    shown = Number(frame?.dataset.version ?? -1);
    known = Math.max(known, shown);
    lessonStep();
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
    toast(`The board cannot be drawn: ${reason(res.data)}`);
  }
  if (again) { again = false; refresh(); }
}

/** A snapshot arrived (WebSocket or an action's answer): redraw if it is news. */
function told(snapshot) {
  if (typeof snapshot.version !== "number") return;
  // an undo takes the version back, so any version other than the one shown is news
  if (snapshot.version < known) logHeld = 0;  // the sentences held may be of moves taken back
  known = snapshot.version;
  if (known !== shown) refresh();
}

// The readable log (log.js) from the seat's events, with each sentence as the board wrote
// it (the server puts the table's names for the seats in it), plus a live region that tells
// a screen reader what just happened and whose turn it is.
let words = null;           // the game's card and tile texts by name (the log's chips)
const toldTexts = new Map(); // event index -> the board's sentence for it
let announced = -1;         // events already announced (-1: none drawn yet, nothing is news)
let mineAnnounced = false;  // "your turn" was said for the turn now on
let logHeld = 0;            // the events before this one have their sentence in toldTexts
let heldNames = "";         // the seats' names those sentences were written with
const seatNames = () => JSON.stringify((snap?.seats ?? []).map((s) => s.name));

/** Keep the board log's sentences by event index (its list is numbered from the newest). */
function keepTold() {
  const list = board.querySelector("#log ol.log");
  if (!list) return;
  const start = Number(list.getAttribute("start"));
  for (const i of [...toldTexts.keys()]) if (i >= start) toldTexts.delete(i);
  [...list.children].forEach((li, i) => toldTexts.set(start - 1 - i, li.textContent));
  logHeld = start;
  heldNames = seatNames();
}

/** Draw the log in place of the board's plain list, and announce what is news. */
function drawLog() {
  if (mode !== "play" || !snap) return;
  const box = board.querySelector("#log");
  if (!box) return;
  const names = (snap.seats ?? []).map((s) => s.name);
  const events = (snap.events ?? []).map((e, i) => (toldTexts.has(i) ? { ...e, text: toldTexts.get(i) } : e));
  box.replaceChildren(renderLog(events, { seat, names, glossary: words }));
  const myTurn = seat !== null && snap.to_move === seat && !snap.over && snap.status === "playing";
  const said = announced >= 0 && events.length > announced
    ? events.slice(announced).slice(-4).map((e) => e.text).filter(Boolean) : [];
  if (myTurn && !mineAnnounced && announced >= 0 && !said.some((t) => /\byour turn\b/i.test(t))) said.push("Your turn");
  if (said.length) announce(said.join(". "));
  announced = events.length;
  mineAnnounced = myTurn;
}

/** Board elements that stand for one thing (a tile, a location, a seat), by a stable key. */
function elements() {
  return [...board.querySelectorAll(".board-area [data-tile], .board-area [data-seat]")]
    .map((el) => [`${el.dataset.tile ?? ""}/${el.dataset.seat ?? ""}`, el]);
}
//: Classes that only say who may act now (or what a lesson points at), not what changed.
const SAYS_WHO_ACTS = ["can-act", "card-target", "to-move", "target", "changed", "pick", "lesson-point", "lesson-region"];
/** What an element shows, leaving out what only says who may act now. */
function look(el) {
  const cls = [...el.classList].filter((c) => !SAYS_WHO_ACTS.includes(c));
  return `${cls.join(" ")}|${el.textContent.replace("◀ to move", "")}`;
}
function marks() { return new Map(elements().map(([k, el]) => [k, look(el)])); }

/** Put new board HTML in place, keeping keyboard focus on the same control if it remains. */
function place(html) {
  let focused = document.activeElement;
  // a move picked from a menu: keep the focus where the menu was opened from
  if (focused && menu.contains(focused) && opener) focused = opener;
  const inBoard = focused && board.contains(focused);
  const key = inBoard ? (focused.dataset.action ?? focused.dataset.actions ?? focused.id) : null;
  const spot = inBoard ? (focused.dataset.tile ?? focused.dataset.card ?? null) : null;
  const region = inBoard ? regionOf(focused) : null;
  closeMenu();
  const why = document.getElementById("why");
  if (why) why.hidden = true;   // a reason given for the board before no longer holds
  const before = marks();
  // where each card, pawn and door was, so the redraw plays out what changed (motion.js);
  // the animations run on their own and never hold up the next snapshot
  const moved = capture(board);
  const panned = panOf();
  fill(board, fromServer(html));
  keepPanned(panned);
  play(board, moved);
  // a seat's hand is docked at the foot of a phone's window (style.css)
  document.body.classList.toggle("hand-docked", !!board.querySelector("[data-hand]"));
  keyboardScroll();
  keepTold();
  drawLog();
  // What changed glows briefly, so a player sees what the last move touched.
  if (before.size) {
    for (const [key, el] of elements()) {
      if (before.get(key) !== look(el)) el.classList.add("changed");
    }
  }
  showOdds(oddsPref());
  if (key || spot) {
    // the same control if it is still there; else the same tile or card (its moves
    // changed with the move just made); else the first control of the same region
    const all = [...board.querySelectorAll("[data-action],[data-actions],[data-explain],[id]")];
    const same = key ? all.find((el) => (el.dataset.action ?? el.dataset.actions ?? el.id) === key) : null;
    const near = spot === null ? null
      : board.querySelector(`[data-tile="${CSS.escape(spot)}"], [data-card="${CSS.escape(spot)}"]`);
    const inRegion = region ? board.querySelector(`${REGIONS[region]} :is([data-action],[data-actions])`) : null;
    const target = same ?? near ?? inRegion ?? board.querySelector("[data-action],[data-actions]");
    if (target) {
      if (!target.hasAttribute("tabindex") && !/^(BUTTON|A|INPUT|SELECT)$/.test(target.tagName)) target.tabIndex = -1;
      target.focus({ preventScroll: true });
    }
  }
}

// A map wider than the window (Clue's on a phone, style.css) pans: a redraw keeps where the
// player had panned it, and brings the places they may move to (else their own pawn, ★) into
// view when they are out of it.
const PANNED = ".clue-map";
function panOf() {
  return [...board.querySelectorAll(PANNED)].map((m) => ({ left: m.scrollLeft, top: m.scrollTop }));
}
function keepPanned(saved) {
  board.querySelectorAll(PANNED).forEach((map, i) => {
    if (map.scrollWidth <= map.clientWidth && map.scrollHeight <= map.clientHeight) return;
    if (saved[i]) { map.scrollLeft = saved[i].left; map.scrollTop = saved[i].top; }
    const at = map.getBoundingClientRect();
    const spot = (el) => {
      const r = el.getBoundingClientRect();
      return { l: r.left - at.left + map.scrollLeft, t: r.top - at.top + map.scrollTop,
        r: r.right - at.left + map.scrollLeft, b: r.bottom - at.top + map.scrollTop };
    };
    const span = (els) => els.map(spot).reduce((u, s) => ({ l: Math.min(u.l, s.l), t: Math.min(u.t, s.t),
      r: Math.max(u.r, s.r), b: Math.max(u.b, s.b) }));
    const mine = [...map.querySelectorAll(".mover")].find((m) => m.textContent.trim() === "★");
    const moves = [...map.querySelectorAll(".can-act")];
    let box = moves.length ? span(moves) : mine ? spot(mine) : null;
    if (!box) return;
    // more than the window holds: the pawn's own place (else the first place to go) in the middle
    if (box.r - box.l > map.clientWidth || box.b - box.t > map.clientHeight) box = spot(mine ?? moves[0]);
    const inView = box.l >= map.scrollLeft && box.r <= map.scrollLeft + map.clientWidth
      && box.t >= map.scrollTop && box.b <= map.scrollTop + map.clientHeight;
    if (inView) return;
    map.scrollLeft = (box.l + box.r - map.clientWidth) / 2;
    map.scrollTop = (box.t + box.b - map.clientHeight) / 2;
  });
}

/** A region that scrolls (a phone's docked hand, Clue's map) with nothing inside that takes
 * the focus would be out of a keyboard's reach: it takes the focus itself, named. */
function keyboardScroll() {
  for (const el of board.querySelectorAll(`[data-hand], ${PANNED}`)) {
    const scrolls = el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight;
    if (!scrolls || el.hasAttribute("tabindex")) continue;
    if (el.querySelector("a[href], button, input, select, textarea, [tabindex]:not([tabindex='-1'])")) continue;
    el.tabIndex = 0;
    el.setAttribute("role", "region");
    el.setAttribute("aria-label", el.matches(PANNED) ? "The map" : "Your cards");
  }
}

// Regions a key jumps to (listed in the help overlay): the hand, the board, the moves, the log.
const REGIONS = {
  hand: "[data-hand]",
  board: ".board-area",
  moves: "#legal",
  log: "#log",
};
const REGION_KEYS = { h: "hand", b: "board", m: "moves", l: "log" };
function regionOf(el) {
  for (const name of ["hand", "moves", "log", "board"]) {
    if (el.closest(REGIONS[name])) return name;
  }
  return null;
}
/** Move the focus to a region: its first control, or the region itself. */
function jump(name) {
  const box = board.querySelector(REGIONS[name]);
  if (!box) { toast(`There is no ${name} on this board.`, "info"); return; }
  // on a phone the log and the moves live in a drawer (log.js): open it first
  const drawer = document.querySelector('.drawer-buttons [aria-controls="log"]');
  if ((name === "log" || name === "moves") && drawer?.getClientRects().length
      && !document.body.classList.contains("log-open")) drawer.click();
  const first = name === "log" ? null
    : box.querySelector("[data-action],[data-actions],[data-explain],button:not([tabindex='-1'])");
  const target = first ?? box;
  if (target === box && !box.hasAttribute("tabindex")) box.tabIndex = -1;
  target.scrollIntoView({ block: "nearest" });
  target.focus({ preventScroll: true });
}

/** Whether the table is still at the version on screen; if it moved on while this page
 * heard nothing (a stalled socket), the page catches up and says so. */
async function fresh() {
  const res = await call("GET", `${apiBase}${q ? `${q}&` : "?"}since=${Math.max(shown, 0)}`);
  if (res.status === 0) { lost(); return false; }
  if (!res.ok) return true;   // let the move itself meet the refusal
  heard();
  if (typeof res.data.version === "number" && res.data.version > known) {
    resync("The table moved on while this page was not hearing from the server. It shows the table as it is now: look again, then choose your move.");
    return false;
  }
  return true;
}

/** The page missed changes: reconnect the socket and redraw, telling the player. */
function resync(message) {
  toast(message, "info");
  if (socket) { socket.onclose = null; socket.close(); socket = null; connect(); }
  refresh();
}

async function act(action, confirmText = "") {
  if (busy || shown < 0) return;
  closeMenu();
  closeDrawer();
  if (lesson && !lessonAllows(action)) return;
  if (confirmText && !(await confirmMove(confirmText))) return;
  busy = true;
  if (Date.now() - lastHeard > CLICK_FRESH_MS && !(await fresh())) { busy = false; return; }
  // the answer's events: only those after the version on screen (the socket has the rest)
  const res = await call("POST", `${apiBase}/actions${q}${q ? "&" : "?"}since=${Math.max(shown, 0)}`, { version: shown, action });
  busy = false;
  if (res.ok) {
    heard();
    told(res.data);
    document.dispatchEvent(new CustomEvent("table-answer", { detail: res.data }));
    return;
  }
  if (res.status === 0) { lost(); return; }
  if (res.data?.code === "action/stale") {
    resync("The table changed since this page last showed it. It is up to date now: choose your move again.");
    return;
  }
  toast(`Not allowed: ${res.data?.reason ?? reason(res.data)}`, "error", ruleLink(game, res.data?.rule));
  refresh();
}

/** A move picked from the moves list in the phone's drawer: the drawer goes, so the board
 * shows what it did. */
function closeDrawer() {
  if (!document.body.classList.contains("log-open")) return;
  document.body.classList.remove("log-open");
  document.querySelectorAll(".drawer-buttons [aria-expanded]").forEach((b) => b.setAttribute("aria-expanded", "false"));
}

/** Ask the player to confirm a move that cannot be taken back; resolves true or false. */
function confirmMove(text) {
  const box = document.getElementById("confirm");
  if (!box) return Promise.resolve(window.confirm(text));
  box.querySelector(".confirm-text").textContent = text;
  box.hidden = false;
  const yes = box.querySelector("[data-confirm-yes]");
  const no = box.querySelector("[data-confirm-no]");
  no.focus();
  return new Promise((resolve) => {
    const done = (answer) => {
      box.hidden = true;
      yes.onclick = no.onclick = null;
      document.removeEventListener("keydown", onKey, true);
      resolve(answer);
    };
    const onKey = (e) => { if (e.key === "Escape") { e.stopPropagation(); done(false); } };
    yes.onclick = () => done(true);
    no.onclick = () => done(false);
    document.addEventListener("keydown", onKey, true);
  });
}

// While a card's menu is open, the board elements its moves act on are outlined and a click
// on one makes that move (a card, then its target), as the menu's own buttons do.
let picks = new Map();    // data-tile -> menu item {action, confirm}
function closeMenu() {
  // the focus goes back to what opened the menu, so a redraw can keep it on that tile
  if (!menu.hidden && menu.contains(document.activeElement) && opener && board.contains(opener)) {
    opener.focus({ preventScroll: true });
  }
  menu.hidden = true;
  menu.replaceChildren();
  picks = new Map();
  board.querySelectorAll(".pick").forEach((el) => el.classList.remove("pick"));
}

let opener = null;        // the board element whose menu is open, to return focus to
function openMenu(el) {
  opener = el;
  const items = JSON.parse(el.dataset.actions);
  fill(menu,
    h("p", { class: "menu-title" }, el.getAttribute("aria-label") ?? "Choose"),
    items.map((it, i) => h("button", { role: "menuitem", "data-action": JSON.stringify(it.action), "data-confirm": it.confirm || null },
      h("kbd", {}, String(i + 1)), ` ${it.label}`)),
    h("button", { class: "cancel", "data-cancel": "1" }, "Cancel (Esc)"));
  menu.hidden = false;
  placeMenu(el);
  const wanted = lesson?.plan[shown];
  if (wanted?.say !== undefined) {
    // a lesson's step: the entry it asks for glows in the menu too
    for (const b of menu.querySelectorAll("[data-action]")) {
      if (canon(JSON.parse(b.dataset.action)) === canon(wanted.action)) b.classList.add("lesson-point");
    }
  }
  (menu.querySelector(".lesson-point") ?? menu.querySelector("button"))?.focus();
  for (const it of items) {
    if (it.target === undefined || it.target === el.dataset.tile || picks.has(it.target)) continue;
    picks.set(it.target, it);
    board.querySelectorAll(`[data-tile="${CSS.escape(it.target)}"]`).forEach((t) => t.classList.add("pick"));
  }
}

/** Put the open menu beside the element it belongs to and inside the window: below it, or
 * above it where there is no room below (a hand at the foot of the window), never past the
 * window's right edge (a phone); a menu taller than either is scrolled into view. */
function placeMenu(el) {
  const r = el.getBoundingClientRect();
  const host = root.getBoundingClientRect();
  menu.style.left = "0px"; menu.style.top = "0px";   // measured where it has the room
  const m = menu.getBoundingClientRect();
  const gap = 4;
  const below = r.bottom + gap + m.height <= innerHeight;
  const above = r.top - gap - m.height >= 0;
  const top = !below && above ? r.top - gap - m.height : r.bottom + gap;
  const width = document.documentElement.clientWidth;
  const left = Math.max(0, Math.min(r.left, width - m.width - 8));
  menu.style.left = `${left - host.left}px`;
  menu.style.top = `${top - host.top}px`;
  if (!below && !above) menu.scrollIntoView({ block: "nearest" });
}

root.addEventListener("click", (e) => {
  if (mode !== "play") return;
  const cancel = e.target.closest("[data-cancel]");
  if (cancel) { closeMenu(); return; }
  const toggle = e.target.closest("[data-pick]");
  if (toggle) { e.preventDefault(); pickCard(toggle); return; }
  if (e.target.closest("[data-card-info]")) { e.preventDefault(); e.stopPropagation(); showCard(e.target.closest("[data-info]")); return; }
  const picked = e.target.closest(".pick[data-tile]");
  if (picked && picks.has(picked.dataset.tile)) {
    const it = picks.get(picked.dataset.tile);
    e.preventDefault(); act(it.action, it.confirm ?? ""); return;
  }
  const one = e.target.closest("[data-action]");
  if (one && root.contains(one)) {
    e.preventDefault(); act(JSON.parse(one.dataset.action), one.dataset.confirm ?? ""); return;
  }
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
    : `Not now: ${res.data.reason}`;
  if (why) {
    why.textContent = text;
    const link = res.ok && !res.data.legal ? ruleLink(game, res.data.rule) : null;
    if (link) why.append(link);
    why.hidden = false;
  }
}

document.addEventListener("keydown", (e) => {
  if (e.target.matches?.("input, select, textarea")) return;
  if (e.key === "Escape") {
    const wasOpen = !menu.hidden;
    closeMenu();
    closeOverlays();
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
  if (e.key === "?") { e.preventDefault(); toggleHelp(); return; }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const region = REGION_KEYS[e.key.toLowerCase()];
  if (region) { e.preventDefault(); jump(region); return; }
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

// Live updates: the WebSocket sends the seat's snapshot on connect (only the events after the
// version this page knows) and then, per change, only what the seat lacked (a delta); polling
// covers a dropped socket.
let socket = null;
let snap = null;          // the seat's snapshot as the socket told it, deltas applied

/** One RFC 6901 pointer's keys. */
function pointer(path) {
  return path.split("/").slice(1).map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** The snapshot after a delta (`from` is the version this page has; 0: every event again). */
function applyDelta(base, d) {
  const next = { ...base };
  next.events = d.from === 0 ? d.events : (base.events ?? []).concat(d.events);
  if (d.view !== undefined) next.view = d.view;
  else {
    next.view = structuredClone(base.view);
    for (const op of d.view_patch) {
      const keys = pointer(op[0]);
      let parent = next.view;
      for (const k of keys.slice(0, -1)) parent = parent[k];
      if (op.length === 2) parent[keys.at(-1)] = op[1];
      else delete parent[keys.at(-1)];
    }
  }
  for (const [k, v] of Object.entries(d)) {
    if (!["type", "from", "events", "view", "view_patch"].includes(k)) next[k] = v;
  }
  return next;
}

/** The sound of an update: its most telling new event (sound.js), only for a change the
 * socket told as a step on from the snapshot on screen (not the first one, not a resync). */
function hear(prev, next, step) {
  const state = (x) => ({
    mine: !!x && seat !== null && x.to_move === seat && !x.over && x.status === "playing",
    over: !!x?.over,
  });
  const was = state(prev);
  const now = state(next);
  if (!step || !prev || next.version <= prev.version) return;
  const fresh = (next.events ?? []).slice((prev.events ?? []).length);
  cue(fresh, { seat, myTurn: now.mine, wasMyTurn: was.mine, over: now.over, wasOver: was.over });
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  // after a reconnect, only what came after the version this page already has
  const since = snap && known === snap.version ? snap.version : 0;
  try {
    socket = new WebSocket(`${proto}://${location.host}${apiBase}/ws${q}${q ? "&" : "?"}seats=1&delta=1&since=${since}`);
  } catch { socket = null; return; }
  socket.onopen = () => { setConn("live"); heard(); };
  socket.onmessage = (m) => {
    let data;
    try { data = JSON.parse(m.data); } catch { return; }
    heard();
    const prev = snap;
    if (data && data.type === "delta") {
      if (!snap || (data.from !== 0 && data.from !== snap.version)) {
        snap = null;  // reconnect for the whole snapshot
        resync("The page missed a change. It shows the table as it is now.");
        return;
      }
      snap = applyDelta(snap, data);
    } else if (data && data.view !== undefined && typeof data.version === "number") {
      // a whole snapshot: its events are those after `since`
      const before = since && snap && snap.version === since ? snap.events : [];
      snap = { ...data, events: before.concat(data.events) };
    } else if (data && data.type) {
      // the table's life (chat, seats, rematch): life.js shows it
      document.dispatchEvent(new CustomEvent("table-message", { detail: data }));
      return;
    } else {
      if (data && (data.code || data.reason)) toast(reason(data), "error", ruleLink(game, data.rule));
      return;
    }
    hear(prev, snap, data.type === "delta" && data.from !== 0);
    told(snap);
    if (snap.version === shown) drawLog();   // else the board's redraw draws it
    document.dispatchEvent(new CustomEvent("table-snapshot", { detail: snap }));
  };
  socket.onclose = () => { setConn("reconnecting…"); socket = null; setTimeout(connect, 1500); };
}

/** Every two seconds: without a socket, fetch the board; with a quiet one, check now and
 * then that the table has not moved on without it (a stalled socket looks open). */
let checking = false;
async function poll() {
  if (!(socket && socket.readyState === WebSocket.OPEN)) { refresh(); return; }
  if (checking || busy || Date.now() - lastHeard < HEARTBEAT_MS) return;
  checking = true;
  try { await fresh(); } finally { checking = false; }
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
    fill(board, h("p", { class: "muted" }, `No replay: ${reason(res.data)}`));
    return;
  }
  steps = res.data.steps;
  step = res.data.step;
  if (sel.options.length === 1) {
    for (let i = 0; i < res.data.players; i++) {
      const o = document.createElement("option");
      o.value = i; o.textContent = res.data.names?.[i] ?? `Seat ${i + 1}`;
      sel.append(o);
    }
    // the coach's review: a chosen seat's decisions, a click shows that step as that seat
    startReview(document.getElementById("review"), apiBase, res.data.players, (who, at) => {
      sel.value = String(who); step = at; replayDraw();
    }, res.data.names ?? []);
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
  drawers();
  await replayDraw();
}

async function start() {
  if (mode === "replay") { await startReplay(); return; }
  const who = document.getElementById("who");
  const title = root.dataset.gameName || game;
  if (who) who.textContent = seat === null ? `Watching a table of ${title}` : `You play at a table of ${title}`;
  if (who && seat !== null && root.dataset.hints === "1") hintButton(who, apiBase, q);
  // a lesson docks its own panel at the foot of a phone and points at what to click: its
  // log and moves stay in the page
  if (!lesson) drawers();
  // the chips' texts come when they come: the board does not wait for them
  glossary(game).then((g) => { words = g; drawLog(); });
  // the seat's snapshot over HTTP first, so the first board is drawn with the readable log
  // (the socket's first snapshot comes later; it then sends only what came after this one)
  const first = await call("GET", `${apiBase}${q}`);
  if (first.ok && typeof first.data?.version === "number" && !snap) { snap = first.data; known = snap.version; heard(); }
  await refresh();
  connect();
  setInterval(poll, 2000);
}


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

// The notebook's odds (the deducer's chance that a card is in the envelope) give the game away
// to a person: hidden until the player shows them ("n" or the button), a choice this browser
// remembers; a spectator sees them once the game is over (the board says which is the default).
const ODDS_KEY = "timelord.odds";
let oddsOn = null;        // this page's choice, once the player made one
function oddsPref() {
  if (oddsOn !== null) return oddsOn;
  if (seat === null) return board.querySelector("[data-odds-default]")?.dataset.oddsDefault === "on";
  try { return localStorage.getItem(ODDS_KEY) === "on"; } catch { return false; }
}
function showOdds(on) {
  document.body.classList.toggle("hide-odds", !on);
  const button = board.querySelector("[data-toggle=odds]");
  if (button) {
    button.setAttribute("aria-pressed", String(on));
    button.textContent = on ? "hide the deducer's odds (n)" : "show the deducer's odds (n)";
  }
}
function toggleOdds() {
  oddsOn = !oddsPref();
  if (seat !== null) { try { localStorage.setItem(ODDS_KEY, oddsOn ? "on" : "off"); } catch { /* private mode */ } }
  showOdds(oddsOn);
}
root.addEventListener("click", (e) => { if (e.target.closest?.("[data-toggle=odds]")) toggleOdds(); });
document.addEventListener("keydown", (e) => {
  if ((e.key === "n" || e.key === "N") && !e.target.matches?.("input, select, textarea")) toggleOdds();
});

// The help overlay ("?"): the keys, and links to the rules and the lesson of this game.
function toggleHelp() {
  const help = document.getElementById("help");
  if (!help) return;
  help.hidden = !help.hidden;
  if (!help.hidden) help.querySelector("button, a")?.focus();
}
function closeOverlays() {
  for (const id of ["help", "card-zoom"]) {
    const el = document.getElementById(id);
    if (el) el.hidden = true;
  }
}
document.addEventListener("click", (e) => {
  if (e.target.closest?.("[data-close]")) closeOverlays();
  if (e.target.closest?.("[data-help]")) toggleHelp();
});

/** A card enlarged: its name, kind, whole text and whether its data is confirmed or a
 * reconstruction (a tap on its ⓘ, so a touch screen reaches what hover shows). */
function showCard(el) {
  if (!el) return;
  let info;
  try { info = JSON.parse(el.dataset.info); } catch { return; }
  const zoom = document.getElementById("card-zoom");
  zoom.querySelector(".zoom-name").textContent = info.name;
  zoom.querySelector(".zoom-kind").textContent = info.kind;
  zoom.querySelector(".zoom-text").textContent = info.text || "No text: this card does what its kind does.";
  zoom.querySelector(".zoom-source").textContent = info.source ? `Card data: ${info.source}` : "";
  zoom.hidden = false;
  zoom.querySelector("button")?.focus();
}

// Learn to play: a lesson table (every seat a person's, the page holding each seat's token)
// walks the lesson's plan. At a learner's step the page says the rule, points at what to
// click and takes only that move; at another seat's step it plays that seat's planned move
// after a short pause, so the learner can follow. The plan comes from POST /api/learn/GAME.
const lesson = (() => {
  if (!new URLSearchParams(location.search).get("lesson")) return null;
  try { return JSON.parse(sessionStorage.getItem(`timelord.lesson.${tableId}`) ?? "null"); } catch { return null; }
})();
const BOT_PAUSE_MS = 900;
let botTimer = null;

/** JSON text with sorted keys, so two spellings of one action compare equal. */
function canon(value) {
  if (Array.isArray(value)) return `[${value.map(canon).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canon(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function lessonPanel() {
  let panel = document.getElementById("lesson");
  if (!panel) {
    panel = document.createElement("section");
    panel.id = "lesson";
    panel.className = "lesson panel";
    panel.setAttribute("aria-live", "polite");
    // above the board's row (board and chat), never inside it: the board keeps its width;
    // the panel stays in view as the page scrolls (style.css docks it on a phone)
    (board.closest(".table-columns") ?? board).before(panel);
    document.body.classList.add("in-lesson");
  }
  return panel;
}

/** The controls that make `action`: single ones, and the menus that hold it. */
function controlsFor(action) {
  const want = canon(action);
  const out = [];
  for (const el of board.querySelectorAll("[data-action]")) {
    try { if (canon(JSON.parse(el.dataset.action)) === want) out.push(el); } catch { /* not an action */ }
  }
  for (const el of board.querySelectorAll("[data-actions]")) {
    try { if (JSON.parse(el.dataset.actions).some((it) => canon(it.action) === want)) out.push(el); } catch { /* not a menu */ }
  }
  return out;
}

function lessonStep() {
  if (!lesson) return;
  clearTimeout(botTimer);
  // the lesson's deal is in the game's data, public by design: the warning that a seeded
  // table's creator may know every card is for tables someone else seeded (the plan is only
  // in the session storage of the tab that started the lesson, so a link cannot hide it)
  document.getElementById("seeded")?.remove();
  const panel = lessonPanel();
  board.querySelectorAll(".lesson-point, .lesson-region").forEach((el) => el.classList.remove("lesson-point", "lesson-region"));
  const plan = lesson.plan;
  const mine = plan.filter((p) => p.say !== undefined).length;
  const done = plan.slice(0, Math.max(shown, 0)).filter((p) => p.say !== undefined).length;
  if (shown >= plan.length) {
    fill(panel, h("h2", {}, "Lesson complete"), h("p", {}, lesson.lesson.outro),
      h("p", {}, h("button", { type: "button", class: "primary", id: "normal-game" }, "Play a normal game against an easy bot"),
        " ", h("a", { href: `/rules/${encodeURIComponent(game)}`, target: "_blank" }, "The rules"), " · ", h("a", { href: "/" }, "Lobby")));
    document.getElementById("normal-game").onclick = normalGame;
    return;
  }
  const ply = plan[shown];
  if (ply.say === undefined) {
    fill(panel, h("p", { class: "lesson-progress" }, `Lesson: ${done} of ${mine} steps done`),
      h("p", {}, `${snap?.seats?.[ply.seat]?.name ?? `Seat ${ply.seat + 1}`} is moving: ${ply.label}…`));
    botTimer = setTimeout(() => botMove(ply), BOT_PAUSE_MS);
    return;
  }
  fill(panel, h("p", { class: "lesson-progress" }, `Lesson: step ${done + 1} of ${mine}`),
    h("p", { class: "lesson-say" }, ply.say, ruleLink(game, ply.rule)),
    h("p", { class: "lesson-do" }, "Do: ", h("strong", {}, ply.label)),
    h("p", { class: "lesson-note", hidden: true }));
  for (const el of controlsFor(ply.action)) el.classList.add("lesson-point");
  const region = REGIONS[ply.point];
  const spot = region ? board.querySelector(region)
    : ply.point ? board.querySelector(`[data-tile="${CSS.escape(ply.point)}"]`) : null;
  spot?.classList.add("lesson-region");
}

async function botMove(ply) {
  const seatToken = lesson.tokens[ply.seat];
  const res = await call("POST", `${apiBase}/actions?token=${encodeURIComponent(seatToken)}`, { version: shown, action: ply.action });
  if (res.ok) { heard(); told(res.data); }
  else if (res.status === 0) lost();
  else refresh();
}

/** Whether the lesson takes this move now; if not, say which one it asks for. */
function lessonAllows(action) {
  const ply = lesson.plan[shown];
  if (!ply) {
    // nobody sits at the other seats of a lesson table: its game stops with the lesson
    toast("The lesson is over: start a normal game against an easy bot from the panel above.", "info");
    return false;
  }
  const note = document.querySelector("#lesson .lesson-note");
  if (ply.say === undefined) {
    if (note) { note.textContent = "Wait a moment: another player is moving."; note.hidden = false; }
    return false;
  }
  if (canon(action) === canon(ply.action)) return true;
  if (note) {
    note.textContent = `Not this time: the lesson asks you to ${ply.label}. The glowing outline shows where.`;
    note.hidden = false;
  }
  return false;
}

async function normalGame() {
  const options = { ...lesson.lesson.options };
  const seats = lesson.tokens.map((_, i) => (i === 0 ? "human" : lesson.lesson.bot));
  const res = await call("POST", "/api/tables", { game, options, seats });
  if (!res.ok) { toast(`The game cannot start: ${reason(res.data)}`); return; }
  location.href = res.data.seats[0].url;
}

start();
