// The lobby: play against bots in one click, or set up a table (options in the rules' words,
// seats for friends, bots or anyone who joins by name, a clock); the tables this browser sits
// at ("Your tables", from local storage), the open tables to join, and the others.
import { call, reason, toast, tableList, isFinished, esc } from "./api.js";
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
  playersSel.innerHTML = g.counts.map((n) =>
    `<option value="${n}" ${n === g.players ? "selected" : ""}>${n}</option>`).join("");
  optionsBox.innerHTML = "";
  for (const [name, value] of Object.entries(g.options)) {
    const label = document.createElement("label");
    label.append(`${g.labels[name] ?? name} `);
    let input;
    if (name === "variant") {
      input = document.createElement("select");
      input.innerHTML = `<option value="standard">standard</option><option value="two-player">two-player</option>`;
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
  seatsBox.innerHTML = "";
  for (let i = 0; i < n; i++) {
    const label = document.createElement("label");
    label.append(i === 0 ? "Seat 1 " : `Seat ${i + 1} `);
    const sel = document.createElement("select");
    sel.name = `seat-${i}`;
    sel.dataset.seat = i;
    sel.innerHTML = kinds.map(([k, words]) =>
      `<option value="${esc(k)}">${esc(i === 0 && k === "human" ? "You" : words)}</option>`).join("");
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
  list.innerHTML = "";
  for (const s of table.seats) {
    const li = document.createElement("li");
    li.dataset.seat = s.seat;
    if (s.agent === "human" && s.url) {
      const url = absolute(s.url);
      li.innerHTML = `Seat ${s.seat + 1}: <a class="seat-link" href="${esc(url)}">open seat ${s.seat + 1}</a> `;
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

const seatNames = (t) => (t.seats ?? []).map((s) => (s.name ?? s.agent) + (s.guest ? " (guest)" : "")).join(" · ");
function whoseTurn(t) {
  if (t.status === "open") return "waiting for players";
  if (t.status === "abandoned") return "ended by its creator";
  if (isFinished(t)) {
    const won = (t.winners ?? []).map((w) => t.seats[w]?.name ?? `seat ${w + 1}`);
    return won.length ? `won by ${won.join(" and ")}` : "nobody won";
  }
  return t.to_move === null || t.to_move === undefined ? "" : `${t.seats[t.to_move]?.name} to move`;
}
function clockOf(t) {
  const c = t.clock;
  if (!c || !c.deadline || t.to_move === null || t.to_move === undefined) return "";
  return ` · ⏱ ${clockText(c.remaining[t.to_move])}`;
}

async function loadTables() {
  const res = await call("GET", "/api/tables");
  const lists = ["open-tables", "live-tables", "done-tables"].map((id) => document.getElementById(id));
  if (!res.ok) { lists[1].innerHTML = `<li class="muted">Cannot list tables: ${esc(reason(res.data))}</li>`; return; }
  const tables = tableList(res.data);
  const link = (t) => `/tables/${encodeURIComponent(t.id)}`;
  const item = (t, action) => `<li data-table="${esc(t.id)}"><strong>${esc(titles[t.game] ?? t.game)}</strong> `
    + `<span class="muted">${esc(seatNames(t))}</span> · ${esc(whoseTurn(t))}${esc(clockOf(t))} ${action(t)}</li>`;
  const groups = [
    [tables.filter((t) => t.status === "open"), (t) => `<a class="join" href="${link(t)}">join</a>`],
    [tables.filter((t) => t.status === "playing"), (t) => `<a href="${link(t)}">watch</a>`],
    [tables.filter((t) => isFinished(t) || t.status === "abandoned"),
      (t) => `<a href="${link(t)}/replay">replay</a> · <a href="${link(t)}">final table</a>`],
  ];
  groups.forEach(([found, action], i) => {
    lists[i].innerHTML = found.length ? found.map((t) => item(t, action)).join("") : `<li class="muted">none</li>`;
  });
}

// Your tables: each remembered seat, with whose turn it is and its clock; a chime when it
// becomes your turn there.
const lastTurn = {};
async function loadYours() {
  const box = document.getElementById("your-tables");
  const mine = Object.entries(remembered()).sort((a, b) => b[1].at - a[1].at).slice(0, 30);
  if (!mine.length) { box.innerHTML = `<li class="muted">none yet</li>`; return; }
  const items = [];
  for (const [id, entry] of mine) {
    const token = new URLSearchParams((entry.url ?? "").split("?")[1] ?? "").get("token");
    const res = await call("GET", `/api/tables/${encodeURIComponent(id)}${token ? `?token=${encodeURIComponent(token)}` : ""}`);
    if (!res.ok) { if (res.status === 404 || res.status === 403) forget(id); continue; }
    const s = res.data;
    const names = s.seats.map((x) => x.name);
    const mineNow = entry.seat !== null && entry.seat !== undefined && s.to_move === entry.seat && !s.over;
    if (mineNow && lastTurn[id] === false) alertPlayer(`Your turn at ${entry.game}`);
    lastTurn[id] = mineNow;
    const turn = s.over ? (s.status === "abandoned" ? "ended" : "game over")
      : s.status === "open" ? "waiting for players"
      : mineNow ? "your turn" : `${names[s.to_move] ?? ""} to move`;
    const clock = s.clock && s.clock.deadline && s.to_move !== null ? ` · ⏱ ${clockText(s.clock.remaining[s.to_move])}` : "";
    items.push(`<li class="${mineNow ? "your-turn" : ""}" data-table="${esc(id)}"><a href="${esc(entry.url)}"><strong>${esc(entry.game ?? "")}</strong></a> `
      + `<span class="muted">${esc(names.join(" · "))}</span> · ${esc(turn)}${esc(clock)}`
      + `${s.rematch ? ` · <a href="/tables/${esc(s.rematch)}${token ? `?token=${esc(token)}` : ""}">rematch offered</a>` : ""}</li>`);
  }
  box.innerHTML = items.join("") || `<li class="muted">none yet</li>`;
}

drawOptions();
loadTables();
loadYours();
setInterval(loadTables, 10000);
setInterval(loadYours, 10000);
