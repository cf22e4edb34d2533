// Motion that explains what changed between two drawings of a board (FLIP: First, Last,
// Invert, Play). The board is redrawn from the server's HTML after every move, so nothing
// on the page "moves" by itself; this module remembers where each thing was before the
// redraw and plays it from there to where it is now:
//   a card (data-card) from the hand to the table, from the deck to the hand, off to the
//   discard; a pawn or mover stepping between tiles; a door turning over when it opens; dice
//   tumbling when they change; a new conflict (.conflict, the Card Game's) showing its sums
//   (the .num strengths) before its result.
// 150-400 ms, with the Web Animations API only (no style injection, works under a strict
// CSP), never blocking input: the element is already in its new place and clickable while
// it animates. Under prefers-reduced-motion nothing moves.
//
// Use (table.js, around the board redraw):
//   const before = timelordMotion.capture(board);   // just before the board is redrawn
//   (redraw the board)
//   timelordMotion.play(board, before);              // just after
// Elements are matched by a key: data-card (cards), a pawn's or mover's title (who it is),
// data-tile (tiles, for the door flip), .die by position. Hints a board may add: data-deck on
// the draw pile (new cards come from it), data-discard on the discard pile (cards that leave
// go to it).

const MIN_MS = 150;
const MAX_MS = 400;
const EASE = "cubic-bezier(.2,.7,.3,1)";

/** Whether the player asked for less motion (checked at each play, so a change applies). */
export function reduced() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Things that travel, by key; a key seen twice (two "Doctor 7" cards) gets #2, #3 in
 * document order, so duplicates pair up in order. */
function movers(root) {
  const out = new Map();
  const seen = new Map();
  const add = (base, el) => {
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    out.set(n === 1 ? base : `${base}#${n}`, el);
  };
  for (const el of root.querySelectorAll("[data-card]")) add(`card:${el.dataset.card}`, el);
  for (const el of root.querySelectorAll(".pawn[title], .mover[title]")) add(`pawn:${el.title}`, el);
  return out;
}

function rectOf(el) {
  const r = el.getBoundingClientRect();
  return { left: r.left, top: r.top, width: r.width, height: r.height };
}

/** What a board shows now, to compare with after a redraw. Cheap: one rect per moving
 * thing and the classes of each tile. */
export function capture(root) {
  const places = new Map();
  const clones = new Map();
  for (const [key, el] of movers(root)) {
    places.set(key, rectOf(el));
    clones.set(key, el);
  }
  const tiles = new Map();
  for (const el of root.querySelectorAll("[data-tile]")) tiles.set(el.dataset.tile, el.className);
  const dice = [...root.querySelectorAll(".die")].map((el) => el.getAttribute("aria-label") ?? el.textContent);
  const deck = root.querySelector("[data-deck]");
  const conflict = conflictKey(root);
  return { places, clones, tiles, dice, deck: deck ? rectOf(deck) : null, conflict, drawn: root.childElementCount > 0 };
}

function duration(dx, dy) {
  // farther travels take a little longer, inside the 150-400 ms band
  return Math.round(Math.min(MAX_MS, Math.max(MIN_MS, 150 + Math.hypot(dx, dy) / 3)));
}

/** Play the change from `before` (capture()) to what `root` shows now. Returns the
 * animations started (none under reduced motion), so callers and tests can wait on them. */
export function play(root, before) {
  if (!before || reduced() || typeof Element.prototype.animate !== "function") return [];
  const started = [];
  const now = movers(root);
  // 1. things that are still here but moved: from the old place to the new one
  for (const [key, el] of now) {
    const was = before.places.get(key);
    const is = rectOf(el);
    if (was) {
      const dx = was.left - is.left;
      const dy = was.top - is.top;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
      const sx = is.width ? was.width / is.width : 1;
      const sy = is.height ? was.height / is.height : 1;
      started.push(el.animate(
        [{ transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})`, transformOrigin: "top left" },
          { transform: "none", transformOrigin: "top left" }],
        { duration: duration(dx, dy), easing: EASE },
      ));
    } else if (before.deck && key.startsWith("card:")) {
      // 2. a card that was nowhere on the board: drawn from the deck
      const dx = before.deck.left - is.left;
      const dy = before.deck.top - is.top;
      started.push(el.animate(
        [{ transform: `translate(${dx}px, ${dy}px) scale(.6)`, opacity: 0.3 }, { transform: "none", opacity: 1 }],
        { duration: duration(dx, dy), easing: EASE },
      ));
    } else if (before.places.size && key.startsWith("card:")) {
      started.push(el.animate([{ transform: "translateY(-12px)", opacity: 0 }, { transform: "none", opacity: 1 }],
        { duration: 220, easing: EASE }));
    }
  }
  // 3. things that left: a copy travels from where they were to the discard pile (or fades)
  const discard = root.querySelector("[data-discard]");
  for (const [key, was] of before.places) {
    if (now.has(key) || !key.startsWith("card:")) continue;
    const ghost = before.clones.get(key).cloneNode(true);
    ghost.classList.add("motion-ghost");
    ghost.setAttribute("aria-hidden", "true");
    // a picture of the card, no longer a control: no id, no move, no key of its own
    for (const el of [ghost, ...ghost.querySelectorAll("[id], [data-action], [data-actions], [data-card]")]) {
      for (const a of ["id", "data-action", "data-actions", "data-card", "data-tile"]) el.removeAttribute(a);
    }
    ghost.inert = true;
    document.body.append(ghost);
    // a fixed element is placed by the Web Animations API too: no inline style attribute
    const at = `translate(${was.left}px, ${was.top}px)`;
    const to = discard ? rectOf(discard) : null;
    const end = to ? `translate(${to.left}px, ${to.top}px) scale(.5)` : `translate(${was.left}px, ${was.top - 16}px)`;
    const anim = ghost.animate(
      [{ transform: at, opacity: 1, width: `${was.width}px` },
        { transform: end, opacity: 0, width: `${was.width}px` }],
      { duration: to ? duration(to.left - was.left, to.top - was.top) : 250, easing: EASE },
    );
    anim.finished.catch(() => {}).finally(() => ghost.remove());
    started.push(anim);
  }
  // 4. a door that opened (or closed) turns over; a tile that changed otherwise pulses
  for (const el of root.querySelectorAll("[data-tile]")) {
    const was = before.tiles.get(el.dataset.tile);
    if (was === undefined || was === el.className) continue;
    const flipped = /\bclosed\b/.test(was) !== el.classList.contains("closed")
      && (el.classList.contains("open") || el.classList.contains("closed"));
    if (flipped) {
      started.push(el.animate(
        [{ transform: "perspective(300px) rotateY(90deg)" }, { transform: "perspective(300px) rotateY(0)" }],
        { duration: 320, easing: EASE },
      ));
    }
  }
  // 5. dice that changed tumble
  const dice = [...root.querySelectorAll(".die")];
  dice.forEach((el, i) => {
    if ((el.getAttribute("aria-label") ?? el.textContent) === before.dice[i]) return;
    started.push(el.animate(
      [{ transform: "rotate(-200deg) scale(.6)" }, { transform: "rotate(20deg) scale(1.1)", offset: 0.7 },
        { transform: "none" }],
      { duration: 380 + i * 20, easing: "ease-out" },
    ));
  });
  // 6. a conflict that was not there before: its steps up to the sums come in first, the
  // strengths pop, and only then the result (its steps wait, invisible, for the sums)
  const conflict = root.querySelector(".conflict");
  if (conflict && before.drawn && conflictKey(root) !== before.conflict) started.push(...sums(conflict));
  return started;
}

/** Which conflict a board shows: its heading and its steps up to the sums (what follows the
 * result, a discard chosen later, grows without making it another conflict). */
function conflictKey(root) {
  const conflict = root.querySelector(".conflict");
  if (!conflict) return null;
  const steps = [...conflict.querySelectorAll(".step")];
  const upTo = steps.findIndex((el) => el.querySelector(".num"));
  const head = conflict.querySelector("h3")?.textContent ?? "";
  return [head, ...steps.slice(0, upTo + 1).map((el) => el.textContent)].join("|");
}

const SUMS_MS = 180;
const RESULT_MS = 380;

/** A conflict's steps in order: up to the one with the strengths (.num), then the rest. */
function sums(conflict) {
  const out = [];
  const steps = [...conflict.querySelectorAll(".step")];
  const at = steps.findIndex((el) => el.querySelector(".num"));
  steps.forEach((el, i) => {
    if (at < 0 || i <= at) {
      out.push(el.animate([{ opacity: 0, transform: "translateY(-6px)" }, { opacity: 1, transform: "none" }],
        { duration: SUMS_MS, easing: EASE }));
    } else {
      out.push(el.animate([{ opacity: 0, transform: "translateY(-6px)" }, { opacity: 0, transform: "translateY(-6px)", offset: 0.5 },
        { opacity: 1, transform: "none" }], { duration: RESULT_MS, easing: EASE }));
    }
  });
  for (const n of conflict.querySelectorAll(".num")) {
    out.push(n.animate([{ transform: "scale(1.7)" }, { transform: "none" }], { duration: 220, easing: EASE }));
  }
  return out;
}

// For pages that load this as a classic script or want it without an import.
if (typeof window !== "undefined") window.timelordMotion = { capture, play, reduced };
