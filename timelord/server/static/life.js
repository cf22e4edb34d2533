// The life of a table around its board: who sits where (names, presence, the stand-in, each
// seat's clock ticking), claiming an open seat, the stand-in and "take my seat back", undo,
// "Play again", the creator's "End table", and the table's chat and notices.
import { call, reason, toast } from "./api.js";
import { remember, remembered, alertPlayer, soundToggle, clockText, askToNotify } from "./yours.js";
import { h } from "./dom.js";

const root = document.getElementById("table");
const tableId = root.dataset.table;
const token = root.dataset.token;
const seatText = root.dataset.seat;
const seat = seatText === "" ? null : Number(seatText);
const api = `/api/tables/${encodeURIComponent(tableId)}`;
const q = token ? `?token=${encodeURIComponent(token)}` : "";
const bar = document.getElementById("seats-bar");
const buttons = document.getElementById("life-actions");
const chatLog = document.getElementById("chat-log");
const chatForm = document.getElementById("chat-form");

let snap = null;          // the latest snapshot
let got = 0;              // performance.now() when it arrived (the clock counts from there)
let seen = 0;             // the last chat line shown
let askedRematch = false; // this page pressed "Play again"
let wasMyTurn = false;
// a lesson walks its own plan: a stand-in bot would play moves the lesson does not expect
const inLesson = new URLSearchParams(location.search).has("lesson")
  && sessionStorage.getItem(`timelord.lesson.${tableId}`) !== null;
let undoAsked = -1;       // the version whose undo offer was asked of the server
let undoOffer = null;     // its answer: {allowed, reason}

soundToggle(document.getElementById("sound"));

function mine() { return seat !== null && snap?.seats?.[seat]; }
function owner() { return remembered()[tableId]?.owner; }

/** Show a snapshot unless a newer one is on screen already (an answer to a request can
 * arrive after the socket told of later moves); `back`: an undo's answer, which is older. */
function show(snapshot, back = false) {
  if (snap && !back && snapshot.version < snap.version) return;
  const myTurnNow = seat !== null && snapshot.to_move === seat && !snapshot.over
    && !snapshot.seats?.[seat]?.stand_in && snapshot.status === "playing";
  // on screen, table.js plays the turn's own sound (sound.js); a hidden tab is notified
  if (myTurnNow && !wasMyTurn && snap !== null && document.hidden) alertPlayer("It is your turn");
  wasMyTurn = myTurnNow;
  const names = (x) => JSON.stringify((x?.seats ?? []).map((t) => t.name));
  // a seat claimed or renamed: the board names seats too, so it is drawn again
  if (snap && names(snap) !== names(snapshot)) document.dispatchEvent(new CustomEvent("table-changed"));
  snap = snapshot;
  got = performance.now();
  if (seat !== null) {
    remember(tableId, { url: location.pathname + location.search, seat, game: root.dataset.gameName,
      name: snapshot.seats?.[seat]?.name });
  }
  drawSeats();
  drawButtons();
  drawClaim();
  drawNaming();
  chatForm.hidden = seat === null;
}

function drawSeats() {
  if (!snap?.seats) return;
  bar.replaceChildren();
  snap.seats.forEach((s, i) => {
    const li = document.createElement("li");
    li.className = "seat-info";
    li.dataset.seat = i;
    if (i === snap.to_move && !snap.over) li.classList.add("to-move");
    const dot = document.createElement("span");
    dot.className = s.connected ? "presence on" : "presence off";
    dot.title = s.connected ? "here" : "away";
    const name = document.createElement("strong");
    name.className = "seat-name";
    name.textContent = s.name + (s.guest ? " (guest)" : "") + (i === seat ? " (you)" : "");
    li.append(dot, name);
    if (s.stand_in) {
      const by = document.createElement("span");
      by.className = "stand-in";
      by.textContent = ` · ${s.stand_in_name ?? "a bot"} plays for ${i === seat ? "you" : "them"}`;
      li.append(by);
    }
    if (snap.clock) {
      const t = document.createElement("span");
      t.className = "clock";
      t.dataset.clockSeat = i;
      li.append(t);
    }
    bar.append(li);
  });
  tick();
}

/** Each seat's time, the seat to move's counting down from the snapshot's arrival. */
function tick() {
  if (!snap?.clock) return;
  const spent = (performance.now() - got) / 1000;
  for (const el of bar.querySelectorAll("[data-clock-seat]")) {
    const i = Number(el.dataset.clockSeat);
    let left = snap.clock.remaining[i];
    if (i === snap.to_move && snap.clock.deadline) left -= spent;
    el.textContent = ` ⏱ ${clockText(left)}`;
    el.classList.toggle("low", left < 30);
  }
}
setInterval(tick, 250);

function button(text, id, onClick) {
  const b = document.createElement("button");
  b.type = "button"; b.id = id; b.textContent = text;
  b.addEventListener("click", onClick);
  buttons.append(b);
  return b;
}

function drawButtons() {
  buttons.replaceChildren();
  const me = mine();
  const playing = snap.status === "playing" && !snap.over;
  if (me && me.agent === "human" && playing && !inLesson) {
    if (me.stand_in) button("Take my seat back", "reclaim", () => seatCall("reclaim"));
    else button("Let a bot play for me", "stand-in", () => seatCall("stand-in"));
  }
  if (me && snap.undo && playing) offerUndo();
  if (snap.over && seat !== null) {
    if (snap.rematch && !askedRematch) button("Join the new table", "rematch", rematch);
    else button("Play again", "rematch", rematch);
  }
  if (snap.over && snap.status === "abandoned") {
    const p = document.createElement("span");
    p.className = "muted"; p.textContent = "The table's creator ended this table.";
    buttons.append(p);
  }
  if (owner() && !snap.over) button("End table", "end", endTable);
}

async function seatCall(what) {
  const res = await call("POST", `${api}/seats/${seat}/${what}${q}`);
  if (res.ok) { show(res.data); document.dispatchEvent(new CustomEvent("table-changed")); }
  else toast(reason(res.data));
}

/** Undo, offered only when the server's undo rule would accept it now (asked once per
 * version); when it would not, the button is disabled and the reason said beside it. */
async function offerUndo() {
  const version = snap.version;
  if (undoAsked !== version) {
    undoAsked = version;
    undoOffer = null;
    const res = await call("GET", `${api}/undo${q}`);
    if (undoAsked !== version) return;   // a newer snapshot asked again meanwhile
    undoOffer = res.ok ? res.data : { allowed: false, reason: reason(res.data) };
    drawButtons();
    return;
  }
  if (!undoOffer || snap.version !== version) return;
  const b = button("Undo my last move", "undo", undo);
  b.disabled = !undoOffer.allowed;
  if (!undoOffer.allowed) {
    const why = document.createElement("small");
    why.className = "muted undo-why";
    why.id = "undo-why";
    why.textContent = `No undo now: ${undoOffer.reason}.`;
    b.setAttribute("aria-describedby", why.id);
    buttons.append(why);
  }
}

async function undo() {
  const res = await call("POST", `${api}/undo${q}`, { version: snap.version });
  undoAsked = -1;
  if (res.ok) { show(res.data, true); document.dispatchEvent(new CustomEvent("table-changed")); }
  else toast(`No undo: ${reason(res.data)}`);
}

async function rematch() {
  askedRematch = true;
  const res = await call("POST", `${api}/rematch${q}`);
  if (res.ok) { keepOwner(res.data.table, res.data.url); go(res.data.url); }
  else toast(reason(res.data));
}

/** The rematch in this browser's "Your tables" before going there; its creator keeps the
 * creator's token (the new table has the old one's creator). */
function keepOwner(newId, url) {
  const link = new URL(url, location.href);
  const at = seat === null || !snap ? null : (seat + 1) % snap.seats.length;  // seats rotate by one
  remember(newId, { url: link.pathname + link.search, game: root.dataset.gameName, seat: at,
    ...(owner() ? { owner: owner() } : {}) });
}

let leaving = false;
/** Go to the new table once (the answer and the socket's message both name it). */
function go(url) {
  if (leaving) return;
  leaving = true;
  location.href = url;
}

async function endTable() {
  if (!confirm("End this table for everybody? Nobody wins.")) return;
  const res = await call("POST", `${api}/end?owner=${encodeURIComponent(owner())}`);
  if (!res.ok) toast(reason(res.data));
  else refreshSnapshot();
}

/** A spectator at a table with open seats may claim one by name. */
function drawClaim() {
  const form = document.getElementById("claim");
  const open = snap.status === "open" && seat === null
    ? snap.seats.filter((s) => s.agent === "open") : [];
  form.hidden = open.length === 0;
  const box = document.getElementById("claim-seats");
  box.replaceChildren();
  for (const s of open) {
    const b = document.createElement("button");
    b.type = "button"; b.className = "primary"; b.dataset.claim = s.seat;
    b.textContent = `Take seat ${s.seat + 1}`;
    b.addEventListener("click", () => claim(s.seat));
    box.append(b);
  }
  const name = document.getElementById("claim-name");
  if (!name.value) name.value = localStorage.getItem("timelord.name") ?? "";
}

/** A person at their own seat who has not given a name (a friend who came by a link is
 * "Blue" until then) is asked for one; it stays with the seat in a rematch. */
function drawNaming() {
  const me = mine();
  let form = document.getElementById("name-seat");
  // only where other people see the name (at a table of bots it would only be noise)
  const people = snap.seats.some((s, i) => i !== seat && (s.agent === "human" || s.agent === "open"));
  const wanted = me && me.agent === "human" && !me.named && !inLesson && people;
  if (!wanted) { if (form) form.hidden = true; return; }
  if (!form) {
    form = document.createElement("form");
    form.id = "name-seat";
    form.className = "claim";
    form.append(
      h("label", {}, "Others see you as ", h("strong", { class: "as" }), ". Your name ",
        h("input", { id: "seat-name", maxlength: 32, required: true, autocomplete: "nickname" })),
      " ",
      h("button", { type: "submit", class: "primary" }, "Set my name"));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const name = form.querySelector("#seat-name").value.trim();
      if (!name) return;
      const res = await call("POST", `${api}/seats/${seat}/name${q}`, { name });
      if (!res.ok) { toast(reason(res.data)); return; }
      localStorage.setItem("timelord.name", name);
      askToNotify();   // a friend's table: it tells them when their turn comes
      show(res.data, true);
    });
    document.getElementById("life").append(form);
    form.querySelector("#seat-name").value = localStorage.getItem("timelord.name") ?? "";
  }
  form.querySelector(".as").textContent = me.name;
  form.hidden = false;
}

async function claim(which) {
  const name = document.getElementById("claim-name").value.trim();
  if (!name) { toast("Give your name first"); return; }
  localStorage.setItem("timelord.name", name);
  askToNotify();   // a table with other people: it tells its player when their turn comes
  const res = await call("POST", `${api}/seats/${which}/claim`, { name });
  if (!res.ok) { toast(reason(res.data)); refreshSnapshot(); return; }
  remember(tableId, { url: new URL(res.data.url).pathname + new URL(res.data.url).search,
    seat: which, game: root.dataset.gameName, name });
  location.href = res.data.url;
}

// -- chat ----------------------------------------------------------------------------------

function addLine(line) {
  if (line.n <= seen) return;
  seen = line.n;
  const li = document.createElement("li");
  li.dataset.n = line.n;
  if (line.seat === null) {
    li.className = "notice";
    li.textContent = line.text;
  } else {
    li.className = line.seat === seat ? "chat-line mine" : "chat-line";
    const who = document.createElement("strong");
    const guest = snap?.seats?.[line.seat]?.guest ? " (guest)" : "";
    who.textContent = `${line.name}${guest}: `;
    const text = document.createElement("span");
    text.textContent = line.text;   // as text: never HTML
    li.append(who, text);
  }
  chatLog.prepend(li);
}

chatForm.addEventListener("submit", async (e) => {
  e.preventDefault();
  const input = document.getElementById("chat-text");
  const text = input.value.trim();
  if (!text) return;
  const res = await call("POST", `${api}/chat${q}`, { text });
  if (res.ok) input.value = "";
  else toast(reason(res.data));
});

async function loadChat() {
  const res = await call("GET", `${api}/chat?after=${seen}`);
  if (res.ok) res.data.messages.forEach(addLine);
}

// -- messages from the table's socket (table.js forwards them) -------------------------------

// the socket's snapshots come in order (an undo's older one too); answers may be overtaken
document.addEventListener("table-snapshot", (e) => show(e.detail, true));
document.addEventListener("table-answer", (e) => show(e.detail));
document.addEventListener("table-message", (e) => {
  const m = e.detail;
  if (m.type === "chat") addLine(m);
  else if (m.type === "seats" && snap) show({ ...snap, seats: m.seats }, true);
  else if (m.type === "rematch") {
    if (snap) snap = { ...snap, rematch: m.table };
    if (m.url) keepOwner(m.table, m.url);
    if (askedRematch) { go(m.url); return; }
    alertPlayer("A rematch is offered");
    toast("A new table is ready: press Play again", "info");
    drawButtons();
  }
});

async function refreshSnapshot() {
  const res = await call("GET", `${api}${q}`);
  if (res.ok) show(res.data);
}

refreshSnapshot();
loadChat();
setInterval(loadChat, 5000);   // a dropped socket must not lose the chat
