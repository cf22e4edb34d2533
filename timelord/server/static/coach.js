// The coach on a table page: the post-game review chart on the replay page, and the Hint
// button on a seat's page at tables that allow hints. Values are expected win share (ties
// split) from the reviewed seat's own view, each with its 95% interval (low-high, inside
// 0-100%, model error included) and the coach's verdict; "unsure" is said in words, never as
// a confident-looking number.
import { call, reason, toast } from "./api.js";
import { h, fill, s as svg } from "./dom.js";

const pct = (v) => `${(100 * v).toFixed(0)}%`;
const signed = (v) => `${v >= 0 ? "+" : ""}${(100 * v).toFixed(0)}`;
const clip = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
/** A move's 95% interval "30-66%"; a review stored before `low`/`high` existed takes them
 * from its error, clipped to 0..1 as the coach clips them. */
const span = (m) => {
  const low = m.low ?? clip(m.value - 1.96 * m.error, 0, 1);
  const high = m.high ?? clip(m.value + 1.96 * m.error, 0, 1);
  return `${(100 * low).toFixed(0)}-${(100 * high).toFixed(0)}%`;
};
/** What each verdict tells a player: the words of timelord.agents.coach.VERDICT_WORDS. */
const VERDICTS = {
  best: "best: ahead of the next move beyond the noise",
  worse: "worse: the best move is ahead of it beyond the noise",
  close: "close: within 5% of the best, either is fine",
  unsure: "unsure: too few samples to tell it from the best, do not trust the order",
};
const verdict = (m) => VERDICTS[m.verdict ?? "unsure"] ?? VERDICTS.unsure;
const valued = (m) => `${pct(m.value)} (95%: ${span(m)})`;
const gain = (d) => `${signed(d.loss)}% win share (95%: ${signed(clip(d.loss - 1.96 * d.loss_error, -1, 1))} ` +
  `to ${signed(clip(d.loss + 1.96 * d.loss_error, -1, 1))}%)`;

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
    const tip = `step ${d.step}: ${d.played.label} ${valued(d.played)}, ${verdict(d)}` +
      (d.costly ? ` — better was: ${d.best[0].label}, ${gain(d)}` : "");
    const unsure = (d.verdict ?? "unsure") === "unsure";
    return svg("circle", {
      cx: x(d.step).toFixed(1), cy: y(d.played.value).toFixed(1), r: d.costly ? 6 : 2.5,
      class: d.costly ? "costly" : unsure ? "dot unsure" : "dot", "data-jump": d.step, "data-seat": review.seat,
      // an unsure point is drawn faint: the coach could not judge that decision
      "fill-opacity": unsure && !d.costly ? 0.35 : null,
    }, svg("title", {}, tip));
  });
  return svg("svg", { class: "review-chart", viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": `Value over time of seat ${review.seat + 1}'s moves` },
  grid,
  svg("path", { d: line((d) => d.best[0].value), class: "best" }),
  svg("path", { d: line((d) => d.played.value), class: "played" }),
  dots,
  svg("text", { x: (L + W) / 2, y: H - 6, "text-anchor": "middle" },
    `step of the game (${review.decisions.length} decisions of seat ${review.seat + 1}; red: costly, faint: unsure)`));
}

/** The costly decisions, worst first, and a plain count of the decisions the coach could
 * not judge. */
function costlyList(review) {
  const costly = review.decisions.filter((d) => d.costly).sort((a, b) => b.loss - a.loss);
  const unsure = review.decisions.filter((d) => !d.costly && (d.verdict ?? "unsure") === "unsure").length;
  const note = unsure ? h("p", { class: "muted review-unsure" },
    `The coach is unsure of ${unsure} of ${review.decisions.length} decisions: too few samples to ` +
    "tell the moves apart, so their order may be noise.") : null;
  if (!costly.length) return [h("p", { class: "muted" }, "No costly decision stood out from the noise."), note];
  return [h("ol", { class: "costly-list" }, costly.map((d) => h("li", {},
    h("button", { "data-jump": d.step, "data-seat": review.seat }, `step ${d.step}`),
    " played ", h("b", {}, d.played.label), `, ${valued(d.played)}; better was: `,
    h("b", {}, d.best[0].label), `, ${gain(d)}`))), note];
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
    const moves = res.data.moves;
    const unsure = moves.some((m) => (m.verdict ?? "unsure") === "unsure");
    fill(out, h("ol", {}, moves.map((m) => h("li", { "data-verdict": m.verdict ?? "unsure" },
      `${m.label} — ${valued(m)} expected win share; ${verdict(m)}`))),
    unsure ? h("p", { class: "hint-unsure" }, "The coach is unsure: it could not tell these moves " +
      "apart with the samples it had, so their order may be noise.") : null);
  };
}
