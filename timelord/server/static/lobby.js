// The lobby: choose a game, its options and seats, create a table, copy the seat links.
import { call, reason, toast, tableList, isFinished, esc } from "./api.js";

const games = JSON.parse(document.getElementById("games-data").textContent);
const kinds = JSON.parse(document.getElementById("seat-kinds").textContent);
const form = document.getElementById("new-table");
const playersSel = document.getElementById("players");
const optionsBox = document.getElementById("options");
const seatsBox = document.getElementById("seats");

const current = () => games.find((g) => g.id === form.elements.game.value);

function drawOptions() {
  const g = current();
  playersSel.innerHTML = g.counts.map((n) =>
    `<option value="${n}" ${n === g.players ? "selected" : ""}>${n}</option>`).join("");
  optionsBox.innerHTML = "";
  for (const [name, value] of Object.entries(g.options)) {
    const label = document.createElement("label");
    label.title = g.docs[name] ?? "";
    label.append(`${name.replaceAll("_", " ")} `);
    const input = document.createElement("input");
    input.name = `opt-${name}`;
    input.dataset.option = name;
    if (typeof value === "boolean") {
      input.type = "checkbox";
      input.checked = value;
    } else if (typeof value === "number") {
      input.type = "number";
      input.value = value;
    } else {
      input.type = "text";
      input.value = value;
    }
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
}

function drawSeats() {
  const n = Number(playersSel.value);
  const old = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
  seatsBox.innerHTML = "";
  for (let i = 0; i < n; i++) {
    const label = document.createElement("label");
    label.append(`Seat ${i} `);
    const sel = document.createElement("select");
    sel.name = `seat-${i}`;
    sel.dataset.seat = i;
    sel.innerHTML = kinds.map((k) => `<option value="${k}">${k === "human" ? "human (a link)" : `bot: ${k}`}</option>`).join("");
    sel.value = old[i] ?? (i === 0 ? "human" : "heuristic");
    label.append(sel);
    seatsBox.append(label);
  }
}

form.addEventListener("change", (e) => {
  if (e.target.name === "game") drawOptions();
  if (e.target === playersSel) drawSeats();
});

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  const g = current();
  const options = { players: Number(playersSel.value) };
  for (const input of optionsBox.querySelectorAll("input")) {
    const k = input.dataset.kind;
    options[input.dataset.option] = k === "boolean" ? input.checked : k === "number" ? Number(input.value) : input.value;
  }
  const seats = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
  const body = { game: g.id, options, seats };
  const seed = document.getElementById("seed").value;
  if (seed !== "") body.seed = Number(seed);
  const res = await call("POST", "/api/tables", body);
  if (!res.ok) { toast(`Could not create the table: ${reason(res.data)}`); return; }
  showCreated(res.data);
  loadTables();
});

function absolute(url) { return new URL(url, location.href).href; }

function showCreated(table) {
  const list = document.getElementById("seat-links");
  list.innerHTML = "";
  for (const s of table.seats) {
    const li = document.createElement("li");
    li.dataset.seat = s.seat;
    if (s.agent === "human" && (s.url || s.token)) {
      const url = absolute(s.url ?? `/tables/${table.id}?token=${encodeURIComponent(s.token)}`);
      li.innerHTML = `Seat ${esc(s.seat)} (human): <a class="seat-link" href="${esc(url)}">open seat ${esc(s.seat)}</a> `;
      const input = document.createElement("input");
      input.readOnly = true; input.value = url; input.size = 40; input.setAttribute("aria-label", `seat ${s.seat} link`);
      const copy = document.createElement("button");
      copy.type = "button"; copy.textContent = "Copy link";
      copy.addEventListener("click", async () => {
        try { await navigator.clipboard.writeText(url); toast("Link copied", "info"); }
        catch { input.select(); document.execCommand?.("copy"); toast("Link selected: press Ctrl+C", "info"); }
      });
      li.append(input, copy);
    } else {
      li.textContent = `Seat ${s.seat}: bot ${s.agent}`;
    }
    list.append(li);
  }
  const watch = document.getElementById("watch-link");
  watch.href = absolute(table.watch_url ?? `/tables/${table.id}`);
  document.getElementById("created").hidden = false;
}

async function loadTables() {
  const res = await call("GET", "/api/tables");
  const live = document.getElementById("live-tables");
  const done = document.getElementById("done-tables");
  if (!res.ok) { live.innerHTML = `<li class="muted">Cannot list tables: ${esc(reason(res.data))}</li>`; done.innerHTML = ""; return; }
  const tables = tableList(res.data);
  const item = (t) => {
    const seats = (t.seats ?? []).map((s) => (typeof s === "string" ? s : s.agent)).join(" · ");
    const link = isFinished(t)
      ? `<a href="/tables/${encodeURIComponent(t.id)}/replay">replay</a> · <a href="/tables/${encodeURIComponent(t.id)}">final table</a>`
      : `<a href="/tables/${encodeURIComponent(t.id)}">watch</a>`;
    return `<li><strong>${esc(t.game)}</strong> <span class="muted">${esc(seats)}</span> ${link}</li>`;
  };
  const fin = tables.filter(isFinished);
  const run = tables.filter((t) => !isFinished(t));
  live.innerHTML = run.length ? run.map(item).join("") : `<li class="muted">none</li>`;
  done.innerHTML = fin.length ? fin.map(item).join("") : `<li class="muted">none</li>`;
}

drawOptions();
loadTables();
setInterval(loadTables, 10000);
