// The coach on a table page: the post-game review chart on the replay page, and the Hint
// button on a seat's page at tables that allow hints. Values are expected win share (ties
// split) from the reviewed seat's own view, with 95% intervals (1.96 standard errors).
import { call, reason, toast } from "./api.js";
import { h, fill, s as svg } from "./dom.js";

const pct = (v) => `${(100 * v).toFixed(0)}%`;
const band = (e) => `±${(196 * e).toFixed(0)}`;

/** The review panel under the replay bar: one button per seat; a chosen seat's review is
 * fetched (polled while the bot pool computes it) and drawn; `jump(seat, step)` moves the
 * replay to a decision. */
export function startReview(host, apiBase, players, jump, names = []) {
  const who = (s) => names[s] ?? `seat ${s + 1}`;
  const body = h("div", { class: "review-body", "aria-live": "polite" });
  const seats = [...Array(players).keys()].map((n) => [h("button", { "data-review-seat": n }, `Review ${who(n)}`), " "]);
  fill(host,
    h("p", { class: "section-title" }, "Coach's review"),
    h("p", { class: "muted" }, "Each of a seat's decisions valued from what that seat could see then."),
    h("div", { class: "review-seats" }, seats),
    body);
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
      fill(body, h("p", { class: "muted" }, `Reviewing ${who(seat)}: ${res.data.done} of ${res.data.total} decisions…`));
      setTimeout(() => load(seat, mine), 1000);
      return;
    }
    if (!res.ok) { fill(body, h("p", { class: "muted" }, `No review: ${reason(res.data)}`)); return; }
    fill(body, chart(res.data.review), costlyList(res.data.review));
  }
}

/** An SVG of the value of each move played (line) and of the best move found (faint),
 * costly decisions in red; each point jumps the replay to its step. */
export function chart(review) {
  const W = 720, H = 220, L = 40, R = 10, T = 10, B = 28;
  const ds = review.decisions;
  const steps = Math.max(1, review.steps);
  const x = (n) => L + (W - L - R) * n / steps;
  const y = (v) => T + (H - T - B) * (1 - v);
  const line = (pick) => ds.map((d, i) => `${i ? "L" : "M"}${x(d.step).toFixed(1)},${y(pick(d)).toFixed(1)}`).join(" ");
  const grid = [0, 0.25, 0.5, 0.75, 1].map((v) => [
    svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }),
    svg("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end" }, pct(v)),
  ]);
  const dots = ds.map((d) => {
    const tip = `step ${d.step}: ${d.played.label} ${pct(d.played.value)} ${band(d.played.error)}` +
      (d.costly ? ` — better was: ${d.best[0].label} (+${pct(d.loss)})` : "");
    return svg("circle", {
      cx: x(d.step).toFixed(1), cy: y(d.played.value).toFixed(1), r: d.costly ? 6 : 2.5,
      class: d.costly ? "costly" : "dot", "data-jump": d.step, "data-seat": review.seat,
    }, svg("title", {}, tip));
  });
  return svg("svg", { class: "review-chart", viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": `Value over time of seat ${review.seat}'s moves` },
  grid,
  svg("path", { d: line((d) => d.best[0].value), class: "best" }),
  svg("path", { d: line((d) => d.played.value), class: "played" }),
  dots,
  svg("text", { x: (L + W) / 2, y: H - 6, "text-anchor": "middle" },
    `step of the game (${review.decisions.length} decisions of seat ${review.seat}; red: costly)`));
}

function costlyList(review) {
  const costly = review.decisions.filter((d) => d.costly).sort((a, b) => b.loss - a.loss);
  if (!costly.length) return h("p", { class: "muted" }, "No costly decision stood out from the noise.");
  return h("ol", { class: "costly-list" }, costly.map((d) => h("li", {},
    h("button", { "data-jump": d.step, "data-seat": review.seat }, `step ${d.step}`),
    " played ", h("b", {}, d.played.label), ` (${pct(d.played.value)} ${band(d.played.error)}); better was: `,
    h("b", {}, d.best[0].label), ` (+${pct(d.loss)} win share ${band(d.loss_error)})`)));
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
    fill(out, h("ol", {}, res.data.moves.map((m) => h("li", {}, `${m.label} — ${pct(m.value)} ${band(m.error)}`))));
  };
}
