// A log people read: what happened, grouped by turn and player, each group headed by the
// player's name in their seat colour with their initial (colour is never the only cue), the
// cards and tiles named as chips that show their text on hover (title) or a tap, and the
// events since this seat last moved marked. On a phone the log (and the chat) are drawers
// opened from buttons at the foot of the screen, not a page below the hand. A live region
// tells screen readers whose turn it is and what just happened.
//
// Everything is built with DOM calls and textContent: event text never becomes HTML.
//
// Use (table.js):
//   timelordLog.drawers();                                  // once, on a table page
//   const glossary = await timelordLog.glossary(game);      // once: card name -> text
//   box.replaceChildren(timelordLog.render(events, { seat, names, gameNames, glossary }));
//   timelordLog.announce("Your turn");                      // whenever it is news
// `events` are the told events ({kind, text, data}) in order; `names[i]` is seat i's name.

/** A seat's one-character mark, as the boards write it (boards/common.py seat_initial):
 * ★ for you, else its name's initial, or its number (counted from 1, as people count seats)
 * for "Seat N", "Bot ..." and "Open seat" names. */
export function initial(seat, names, me) {
  if (seat === me) return "★";
  const name = names?.[seat] ?? `Seat ${seat + 1}`;
  return /^(Seat|Bot|Open seat)/.test(name) ? String(seat + 1) : name.slice(0, 1);
}

function seatName(seat, names, me, standin = false) {
  if (standin) return seat === me ? "The stand-in, for you" : `The stand-in, for ${names?.[seat] ?? `Seat ${seat + 1}`}`;
  if (seat === me) return "You";
  return names?.[seat] ?? `Seat ${seat + 1}`;
}

/** Events in groups: a group is one player's run of events; a "turn" event starts a new
 * one. Events with no actor (a conflict's result) stay in the group they happen in. The
 * moves a stand-in bot made for a person (events the server marks `standin: true`) are a
 * group of their own, so its heading can say the stand-in made them. */
export function groups(events) {
  const out = [];
  let cur = null;
  events.forEach((e, index) => {
    const actor = e.data?.actor ?? null;
    const standin = e.standin === true && e.kind !== "turn";
    const startsTurn = e.kind === "turn";
    const otherActor = actor !== null && cur?.actor !== null && actor !== cur?.actor;
    const otherHand = actor !== null && standin !== cur?.standin && cur?.items.some((i) => i.kind !== "turn");
    if (!cur || startsTurn || otherActor || otherHand) {
      cur = { actor, standin, round: e.data?.round ?? null, items: [] };
      out.push(cur);
    }
    if (cur.actor === null && actor !== null) cur.actor = actor;
    if (actor !== null) cur.standin = standin;
    cur.items.push({ ...e, index });
  });
  return out;
}

/** The index of the first event after this seat's last move before the others' (0 when it
 * never moved, events.length when nobody else has acted yet). The run of the seat's own
 * events at the very end is its turn now (its start, a card drawn for it, what it did so
 * far), not news to it: what is news is what the others did since its turn before. */
export function sinceMine(events, seat) {
  if (seat === null || seat === undefined) return events.length;
  let i = events.length - 1;
  while (i >= 0 && events[i].data?.actor === seat) i--;
  if (i < 0) return events.length;
  for (; i >= 0; i--) {
    if (events[i].data?.actor === seat) return i + 1;
  }
  return 0;
}

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A sentence with every glossary name in it as a chip: its text on hover, and on a tap
 * (or Enter) shown below the line. A number right after a name joins its chip ("Doctor 9"
 * in Episodes, where the glossary names the suit). */
function sentence(text, glossary) {
  const li = el("li");
  const names = glossary ? Object.keys(glossary).filter((n) => n.length > 2 && text.includes(n)) : [];
  if (!names.length) { li.textContent = text; return li; }
  names.sort((a, b) => b.length - a.length);
  const escaped = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp(`(${escaped.join("|")})( \\d+)?`, "g");
  let at = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > at) li.append(document.createTextNode(text.slice(at, m.index)));
    const chip = el("button", "chip card-chip", m[0]);
    chip.type = "button";
    chip.title = glossary[m[1]].text || m[1];
    chip.setAttribute("aria-expanded", "false");
    chip.dataset.chip = m[1];
    li.append(chip);
    at = m.index + m[0].length;
  }
  if (at < text.length) li.append(document.createTextNode(text.slice(at)));
  return li;
}

/** Show or hide a chip's text under its line (a tap, for screens without hover). */
function toggleChip(chip) {
  const li = chip.closest("li");
  const open = chip.getAttribute("aria-expanded") === "true";
  li.querySelectorAll(".chip-tip").forEach((t) => t.remove());
  li.querySelectorAll(".chip[aria-expanded=true]").forEach((c) => c.setAttribute("aria-expanded", "false"));
  if (open) return;
  const tip = el("span", "chip-tip", `${chip.dataset.chip}: ${chip.title}`);
  tip.setAttribute("role", "note");
  li.append(tip);
  chip.setAttribute("aria-expanded", "true");
}

/** An event's sentence with the game's seat names ("Seat 1 (north)") replaced by the
 * table's ("Bot (heuristic)"), as the server's boards do (boards/common.py Snapshot.told):
 * in one pass, so a name put in is never read again ("Seat 0" becoming "Seat 1" does not
 * go on to become seat 1's name). */
export function told(text, names, gameNames) {
  if (!names || !gameNames) return text;
  const table = new Map(gameNames.map((old, i) => [old, names[i]]).filter(([old, now]) => old && now && old !== now));
  if (!table.size) return text;
  const olds = [...table.keys()].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(olds.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
  return text.replace(pattern, (m) => table.get(m));
}

/** The log as an element: groups newest first, the line "since your last move" above the
 * older ones. Options: seat (this page's, null for a spectator), names (the table's names
 * by seat), gameNames (the game's own seat names, which event texts use), glossary
 * ({name: {text}}), limit (groups shown). */
export function render(events, { seat = null, names = null, gameNames = null, glossary = null, limit = 40 } = {}) {
  const list = el("ol", "log-turns");
  list.setAttribute("aria-label", "What happened, newest first");
  const since = sinceMine(events, seat);
  const all = groups(events);
  const shown = all.slice(-limit).reverse();
  let marked = false;
  for (const g of shown) {
    const fresh = seat !== null && g.items[0].index >= since && since > 0;
    if (!fresh && !marked && seat !== null && since > 0 && since < events.length) {
      list.append(el("li", "log-since", "since your last move ↑"));
      marked = true;
    }
    const item = el("li", `log-turn${fresh ? " fresh" : ""}`);
    if (g.actor !== null) item.classList.add(`seat-${g.actor % 6}`);
    const head = el("header");
    if (g.actor !== null) {
      const dot = el("span", "seat-dot", initial(g.actor, names, seat));
      dot.setAttribute("aria-hidden", "true");
      head.append(dot, el("span", "seat-name", seatName(g.actor, names, seat, g.standin)));
    } else {
      head.append(el("span", "seat-name", "The game"));
    }
    if (g.round !== null) head.append(el("span", "log-round", `round ${g.round}`));
    const lines = el("ol");
    for (const e of g.items) {
      if (e.kind === "turn") continue;   // the header says whose turn it is
      lines.append(sentence(told(e.text ?? "", names, gameNames), glossary));
    }
    if (!lines.children.length) lines.append(el("li", "muted", g.items[0].text ?? ""));
    item.append(head, lines);
    list.append(item);
  }
  if (!events.length) list.append(el("li", "muted", "Nothing has happened yet."));
  list.addEventListener("click", (ev) => {
    const chip = ev.target.closest?.("[data-chip]");
    if (chip) toggleChip(chip);
  });
  return list;
}

const glossaries = new Map();
/** A game's card and tile texts by name (GET /how-to-play/GAME/glossary.json), fetched once. */
export async function glossary(game) {
  if (!glossaries.has(game)) {
    glossaries.set(game, fetch(`/how-to-play/${encodeURIComponent(game)}/glossary.json`)
      .then((r) => (r.ok ? r.json() : {})).catch(() => ({})));
  }
  return glossaries.get(game);
}

/** A polite live region (made once) that screen readers read out. */
export function announce(text) {
  let region = document.getElementById("announce");
  if (!region) {
    region = el("div", "sr-only");
    region.id = "announce";
    region.setAttribute("role", "status");
    region.setAttribute("aria-live", "polite");
    document.body.append(region);
  }
  region.textContent = "";
  // a fresh text node after the clear, so a repeated message is read again
  requestAnimationFrame(() => { region.textContent = text; });
}

/** On a phone, the log (the board's side column) and the chat become drawers opened by
 * buttons at the foot of the screen; Escape closes them. Call once per page. */
export function drawers() {
  if (document.querySelector(".drawer-buttons")) return;
  const bar = el("div", "drawer-buttons");
  const make = (label, cls, controls) => {
    const b = el("button", "", label);
    b.type = "button";
    b.setAttribute("aria-expanded", "false");
    if (controls) b.setAttribute("aria-controls", controls);
    b.addEventListener("click", () => {
      const open = !document.body.classList.contains(cls);
      document.body.classList.remove("log-open", "chat-open");
      bar.querySelectorAll("button").forEach((x) => x.setAttribute("aria-expanded", "false"));
      document.body.classList.toggle(cls, open);
      b.setAttribute("aria-expanded", String(open));
      if (open) document.querySelector(cls === "log-open" ? "#log" : "#chat")?.focus?.();
    });
    bar.append(b);
  };
  make("Log · moves", "log-open", "log");
  if (document.getElementById("chat")) make("Chat", "chat-open", "chat");
  document.body.append(bar);
  document.body.classList.add("has-drawers");
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    document.body.classList.remove("log-open", "chat-open");
    bar.querySelectorAll("button").forEach((x) => x.setAttribute("aria-expanded", "false"));
  });
}

if (typeof window !== "undefined") {
  window.timelordLog = { render, told, groups, sinceMine, initial, glossary, announce, drawers };
}
