// The lobby: play against bots in one click, or set up a table (options in the rules' words,
// seats for friends, bots or anyone who joins by name, a clock); the tables this browser sits
// at ("Your tables", from local storage), the open tables to join, and the others.
import { call, reason, toast, tableList, isFinished } from "./api.js";
import { h, fill } from "./dom.js";
import { remember, remembered, forget, alertPlayer, soundToggle, clockText, askToNotify } from "./yours.js";

const games = JSON.parse(document.getElementById("games-data").textContent);
const kinds = JSON.parse(document.getElementById("seat-kinds").textContent);
const clocks = JSON.parse(document.getElementById("clocks-data").textContent);
const form = document.getElementById("new-table");
const playersSel = document.getElementById("players");
const optionsBox = document.getElementById("options");
const seatsBox = document.getElementById("seats");
const nameInput = document.getElementById("my-name");
const titles = Object.fromEntries(games.map((g) => [g.id, g.name]));

soundToggle(document.getElementById("sound"));
nameInput.value = localStorage.getItem("timelord.name") ?? "";
nameInput.addEventListener("change", () => localStorage.setItem("timelord.name", nameInput.value.trim()));

const hints = () => document.getElementById("hints").checked;
const current = () => games.find((g) => g.id === form.elements.game.value);
const myName = () => nameInput.value.trim() || null;

function drawOptions() {
  const g = current();
  fill(playersSel, g.counts.map((n) => h("option", { value: n, selected: n === g.players }, n)));
  fill(optionsBox);
  for (const [name, value] of Object.entries(g.options)) {
    const label = document.createElement("label");
    label.append(`${g.labels[name] ?? name} `);
    let input;
    if (name === "variant") {
      input = document.createElement("select");
      fill(input, ["standard", "two-player"].map((v) => h("option", { value: v }, v)));
      input.value = value;
    } else {
      input = document.createElement("input");
      if (typeof value === "boolean") { input.type = "checkbox"; input.checked = value; }
      else if (typeof value === "number") { input.type = "number"; input.value = value; }
      else { input.type = "text"; input.value = value; }
    }
    input.name = `opt-${name}`;
    input.dataset.option = name;
    input.dataset.kind = typeof value;
    label.append(input);
    if (g.docs[name]) {
      const doc = document.createElement("small");
      doc.className = "muted";
      doc.textContent = ` ${g.docs[name]}`;
      label.append(doc);
    }
    optionsBox.append(label);
  }
  drawSeats();
  matchVariant();
}

// Two players play the two-player rules unless asked otherwise (Clue ruling CL-18): the
// variant offered follows the player count, so the form never sends a contradicting default.
function matchVariant() {
  const variant = optionsBox.querySelector('select[data-option="variant"]');
  if (variant) variant.value = Number(playersSel.value) === 2 ? "two-player" : "standard";
  matchIntrigue();
}

// The two-player rules never use the intrigue deck (C-8.2): the box follows the variant.
function matchIntrigue() {
  const variant = optionsBox.querySelector('select[data-option="variant"]');
  const intrigue = optionsBox.querySelector('input[data-option="intrigue"]');
  if (variant && intrigue) intrigue.checked = variant.value !== "two-player";
}

function drawSeats() {
  const n = Number(playersSel.value);
  const old = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
  fill(seatsBox);
  for (let i = 0; i < n; i++) {
    const label = document.createElement("label");
    label.append(i === 0 ? "Seat 1 " : `Seat ${i + 1} `);
    const sel = document.createElement("select");
    sel.name = `seat-${i}`;
    sel.dataset.seat = i;
    fill(sel, kinds.map(([k, words]) => h("option", { value: k }, i === 0 && k === "human" ? "You" : words)));
    sel.value = old[i] ?? (i === 0 ? "human" : "heuristic");
    label.append(sel);
    seatsBox.append(label);
  }
  undoDefault();
}

/** Undo is on by default when everybody else at the table is a bot. */
function undoDefault() {
  const seats = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
  document.getElementById("undo").checked = seats.slice(1).every((k) => k !== "human" && k !== "open");
}

form.addEventListener("change", (e) => {
  if (e.target.name === "game") drawOptions();
  else if (e.target === playersSel) { drawSeats(); matchVariant(); }
  else if (e.target.dataset && e.target.dataset.option === "variant") matchIntrigue();
  else if (e.target.name?.startsWith("seat-")) undoDefault();
});

function options() {
  const out = { players: Number(playersSel.value) };
  for (const input of optionsBox.querySelectorAll("[data-option]")) {
    const k = input.dataset.kind;
    out[input.dataset.option] = k === "boolean" ? input.checked : k === "number" ? Number(input.value) : input.value;
  }
  return out;
}

async function create(body) {
  const res = await call("POST", "/api/tables", body);
  if (!res.ok) { toast(`Could not create the table: ${reason(res.data)}`); return null; }
  const table = res.data;
  const mine = table.seats.find((s) => s.token);
  remember(table.id, {
    owner: table.owner_token, game: titles[body.game], seat: mine ? mine.seat : null,
    url: mine ? new URL(mine.url).pathname + new URL(mine.url).search : `/tables/${table.id}`,
    name: myName(),
  });
  return table;
}

// One click: this game, its usual seat count, you and bots at the chosen level.
document.getElementById("play-bots").addEventListener("click", async () => {
  const g = current();
  const level = document.getElementById("bot-level").value;
  const seats = ["human", ...Array(g.players - 1).fill(level)];
  const names = [myName(), ...Array(g.players - 1).fill(null)];
  const table = await create({ game: g.id, seats, names, undo: true, hints: hints() });
  if (table) location.href = table.seats[0].url;
});

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  const g = current();
  const seats = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
  const names = seats.map((k, i) => (i === 0 && k === "human" ? myName() : null));
  const body = { game: g.id, options: options(), seats, names,
    clock: clocks[Number(document.getElementById("clock").value)][1],
    undo: document.getElementById("undo").checked, hints: hints() };
  const seed = document.getElementById("seed")?.value;
  if (seed) body.seed = Number(seed);
  // other people will take turns here: the moment to ask to tell this player it is theirs
  if (seats.slice(1).some((k) => k === "human" || k === "open")) askToNotify();
  const table = await create(body);
  if (!table) return;
  showCreated(table);
  loadTables();
  loadYours();   // the new table is under "Your tables" at once, not at the next poll
});

function absolute(url) { return new URL(url, location.href).href; }

function showCreated(table) {
  const list = document.getElementById("seat-links");
  fill(list);
  for (const s of table.seats) {
    const li = document.createElement("li");
    li.dataset.seat = s.seat;
    if (s.agent === "human" && s.url) {
      const url = absolute(s.url);
      li.append(`Seat ${s.seat + 1}: `, h("a", { class: "seat-link", href: url }, `open seat ${s.seat + 1}`), " ");
      const input = document.createElement("input");
      input.readOnly = true; input.value = url; input.size = 40; input.setAttribute("aria-label", `seat ${s.seat + 1} link`);
      const copy = document.createElement("button");
      copy.type = "button"; copy.textContent = "Copy link";
      copy.addEventListener("click", async () => {
        try { await navigator.clipboard.writeText(url); toast("Link copied", "info"); }
        catch { input.select(); toast("Link selected: press Ctrl+C", "info"); }
      });
      li.append(input, copy);
    } else if (s.agent === "open") {
      li.textContent = `Seat ${s.seat + 1}: open — anyone with the table's link joins by name`;
    } else {
      li.textContent = `Seat ${s.seat + 1}: ${kinds.find(([k]) => k === s.agent)?.[1] ?? s.agent}`;
    }
    list.append(li);
  }
  const watch = document.getElementById("watch-link");
  watch.href = absolute(table.watch_url);
  document.getElementById("created").hidden = false;
}

/** A seat's name as the lobby shows it: a guest marked as one. */
const nameOf = (s) => (s?.name ?? s?.agent ?? "") + (s?.guest ? " (guest)" : "");
const seatNames = (t) => (t.seats ?? []).map(nameOf).join(" · ");
function whoseTurn(t) {
  if (t.status === "open") return "waiting for players";
  if (t.status === "abandoned") return "ended by its creator";
  if (isFinished(t)) {
    const won = (t.winners ?? []).map((w) => (t.seats[w] ? nameOf(t.seats[w]) : `seat ${w + 1}`));
    return won.length ? `won by ${won.join(" and ")}` : "nobody won";
  }
  return t.to_move === null || t.to_move === undefined ? "" : `${nameOf(t.seats[t.to_move])} to move`;
}
function clockOf(t) {
  const c = t.clock;
  if (!c || !c.deadline || t.to_move === null || t.to_move === undefined) return "";
  return ` · ⏱ ${clockText(c.remaining[t.to_move])}`;
}

async function loadTables() {
  const res = await call("GET", "/api/tables");
  const lists = ["open-tables", "live-tables", "done-tables"].map((id) => document.getElementById(id));
  if (!res.ok) { fill(lists[1], h("li", { class: "muted" }, `Cannot list tables: ${reason(res.data)}`)); return; }
  const tables = tableList(res.data);
  const link = (t) => `/tables/${encodeURIComponent(t.id)}`;
  const item = (t, action) => h("li", { "data-table": t.id }, h("strong", {}, titles[t.game] ?? t.game), " ",
    h("span", { class: "muted" }, seatNames(t)), ` · ${whoseTurn(t)}${clockOf(t)} `, action(t));
  const groups = [
    [tables.filter((t) => t.status === "open"), (t) => h("a", { class: "join", href: link(t) }, "join")],
    [tables.filter((t) => t.status === "playing"), (t) => h("a", { href: link(t) }, "watch")],
    [tables.filter((t) => isFinished(t) || t.status === "abandoned"),
      (t) => [h("a", { href: `${link(t)}/replay` }, "replay"), " · ", h("a", { href: link(t) }, "final table")]],
  ];
  groups.forEach(([found, action], i) => {
    fill(lists[i], found.length ? found.map((t) => item(t, action)) : h("li", { class: "muted" }, "none"));
  });
}

// Your tables: each remembered seat, with whose turn it is and its clock; a chime when it
// becomes your turn there.
const lastTurn = {};
async function loadYours() {
  const box = document.getElementById("your-tables");
  const mine = Object.entries(remembered()).sort((a, b) => b[1].at - a[1].at).slice(0, 30);
  if (!mine.length) { fill(box, h("li", { class: "muted" }, "none yet")); return; }
  const items = [];
  for (const [id, entry] of mine) {
    const token = new URLSearchParams((entry.url ?? "").split("?")[1] ?? "").get("token");
    const res = await call("GET", `/api/tables/${encodeURIComponent(id)}${token ? `?token=${encodeURIComponent(token)}` : ""}`);
    if (!res.ok) { if (res.status === 404 || res.status === 403) forget(id); continue; }
    const s = res.data;
    const names = s.seats.map(nameOf);
    const mineNow = entry.seat !== null && entry.seat !== undefined && s.to_move === entry.seat && !s.over;
    if (mineNow && lastTurn[id] === false) alertPlayer(`Your turn at ${entry.game}`);
    lastTurn[id] = mineNow;
    const turn = s.over ? (s.status === "abandoned" ? "ended" : "game over")
      : s.status === "open" ? "waiting for players"
      : mineNow ? "your turn" : `${names[s.to_move] ?? ""} to move`;
    const clock = s.clock && s.clock.deadline && s.to_move !== null ? ` · ⏱ ${clockText(s.clock.remaining[s.to_move])}` : "";
    const rematch = s.rematch
      ? [" · ", h("a", { href: `/tables/${encodeURIComponent(s.rematch)}${token ? `?token=${encodeURIComponent(token)}` : ""}` }, "rematch offered")]
      : [];
    items.push(h("li", { class: mineNow ? "your-turn" : null, "data-table": id },
      h("a", { href: entry.url }, h("strong", {}, entry.game ?? "")), " ",
      h("span", { class: "muted" }, names.join(" · ")), ` · ${turn}${clock}`, rematch));
  }
  fill(box, items.length ? items : h("li", { class: "muted" }, "none yet"));
}

drawOptions();
loadTables();
loadYours();
setInterval(loadTables, 10000);
setInterval(loadYours, 10000);
