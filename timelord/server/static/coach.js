// The coach on a table page: the post-game review chart on the replay page, and the Hint
// button on a seat's page at tables that allow hints. Values are expected win share (ties
// split) from the reviewed seat's own view, with 95% intervals (1.96 standard errors).
import { call, reason, toast, esc } from "./api.js";

const pct = (v) => `${(100 * v).toFixed(0)}%`;
const band = (e) => `±${(196 * e).toFixed(0)}`;

/** The review panel under the replay bar: one button per seat; a chosen seat's review is
 * fetched (polled while the bot pool computes it) and drawn; `jump(seat, step)` moves the
 * replay to a decision. */
export function startReview(host, apiBase, players, jump, names = []) {
  const who = (s) => names[s] ?? `seat ${s + 1}`;
  host.innerHTML = `<p class="section-title">Coach's review</p>
    <p class="muted">Each of a seat's decisions valued from what that seat could see then.</p>
    <div class="review-seats">${[...Array(players).keys()].map((s) =>
      `<button data-review-seat="${s}">Review ${esc(who(s))}</button>`).join(" ")}</div>
    <div class="review-body" aria-live="polite"></div>`;
  const body = host.querySelector(".review-body");
  let asked = 0;
  host.addEventListener("click", (e) => {
    const b = e.target.closest("[data-review-seat]");
    if (b) { const mine = ++asked; load(Number(b.dataset.reviewSeat), mine); return; }
    const j = e.target.closest("[data-jump]");
    if (j) jump(Number(j.dataset.seat), Number(j.dataset.jump));
  });
  async function load(seat, mine) {
    const res = await call("GET", `${apiBase}/review?seat=${seat}`);
    if (mine !== asked) return;
    if (res.status === 202) {
      body.innerHTML = `<p class="muted">Reviewing ${esc(who(seat))}: ${res.data.done} of ${res.data.total} decisions…</p>`;
      setTimeout(() => load(seat, mine), 1000);
      return;
    }
    if (!res.ok) { body.innerHTML = `<p class="muted">No review: ${esc(reason(res.data))}</p>`; return; }
    body.innerHTML = chart(res.data.review) + costlyList(res.data.review);
  }
}

/** An SVG of the value of each move played (line) and of the best move found (faint),
 * costly decisions in red; each point jumps the replay to its step. */
export function chart(review) {
  const W = 720, H = 220, L = 40, R = 10, T = 10, B = 28;
  const ds = review.decisions;
  const steps = Math.max(1, review.steps);
  const x = (s) => L + (W - L - R) * s / steps;
  const y = (v) => T + (H - T - B) * (1 - v);
  const line = (pick) => ds.map((d, i) => `${i ? "L" : "M"}${x(d.step).toFixed(1)},${y(pick(d)).toFixed(1)}`).join(" ");
  const grid = [0, 0.25, 0.5, 0.75, 1].map((v) =>
    `<line x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}" class="grid"/><text x="${L - 4}" y="${y(v) + 4}" text-anchor="end">${pct(v)}</text>`).join("");
  const dots = ds.map((d) => {
    const cls = d.costly ? "costly" : "dot";
    const r = d.costly ? 6 : 2.5;
    const tip = `step ${d.step}: ${d.played.label} ${pct(d.played.value)} ${band(d.played.error)}` +
      (d.costly ? ` — better was: ${d.best[0].label} (+${pct(d.loss)})` : "");
    return `<circle cx="${x(d.step).toFixed(1)}" cy="${y(d.played.value).toFixed(1)}" r="${r}" class="${cls}" data-jump="${d.step}" data-seat="${review.seat}"><title>${esc(tip)}</title></circle>`;
  }).join("");
  return `<svg class="review-chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="Value over time of seat ${review.seat}'s moves">
    ${grid}
    <path d="${line((d) => d.best[0].value)}" class="best"/>
    <path d="${line((d) => d.played.value)}" class="played"/>
    ${dots}
    <text x="${(L + W) / 2}" y="${H - 6}" text-anchor="middle">step of the game (${review.decisions.length} decisions of seat ${review.seat}; red: costly)</text>
  </svg>`;
}

function costlyList(review) {
  const costly = review.decisions.filter((d) => d.costly).sort((a, b) => b.loss - a.loss);
  if (!costly.length) return `<p class="muted">No costly decision stood out from the noise.</p>`;
  return `<ol class="costly-list">${costly.map((d) =>
    `<li><button data-jump="${d.step}" data-seat="${review.seat}">step ${d.step}</button>
      played <b>${esc(d.played.label)}</b> (${pct(d.played.value)} ${band(d.played.error)});
      better was: <b>${esc(d.best[0].label)}</b> (+${pct(d.loss)} win share ${band(d.loss_error)})</li>`).join("")}</ol>`;
}

/** The Hint button of a seat's page: the coach's top moves for this seat, from its view. */
export function hintButton(host, apiBase, q) {
  const button = document.createElement("button");
  button.id = "hint";
  button.textContent = "Hint";
  button.title = "the coach's best moves for you now, from what you can see";
  const out = document.createElement("div");
  out.className = "hint-box";
  out.setAttribute("role", "status");
  host.append(" ", button, out);
  button.onclick = async () => {
    button.disabled = true;
    out.textContent = "Thinking…";
    const res = await call("GET", `${apiBase}/hint${q}`);
    button.disabled = false;
    if (!res.ok) { out.textContent = ""; toast(reason(res.data), "info"); return; }
    out.innerHTML = `<ol>${res.data.moves.map((m) =>
      `<li>${esc(m.label)} — ${pct(m.value)} ${band(m.error)}</li>`).join("")}</ol>`;
  };
}
