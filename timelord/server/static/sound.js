// The table's sounds: distinct short cues for your turn, a card played, a door opened, a
// conflict won or lost, and the end of the game. Our own, synthesized by
// scripts/make_sounds.py (NOTICE.md). On or off with the header's Sound button, remembered in
// this browser under the same key as the lobby's chime ("timelord.sound"), so one switch
// governs every sound. A file is fetched the first time it is played, not before.
//
// Use (table.js, when a snapshot arrives):
//   timelordSound.cue(newEvents, { seat, myTurn, wasMyTurn, over, wasOver });
// plays the one most important cue of that update (never a pile of sounds at once).

const KEY = "timelord.sound";
const NAMES = ["your-turn", "card", "door", "won", "lost", "end"];
//: When several things happened in one update, the most telling one is heard.
const PRIORITY = ["end", "won", "lost", "your-turn", "door", "card"];
//: Event kinds (all four games) that put a card on the table.
const CARD_KINDS = new Set([
  "play-location", "play-support", "declare", "attack", "attack-tardis", "defend", "buy",
  "reserve", "valiant", "ability", "episode", "play", "rumour", "show", "barrier", "cookie",
  "tunnel", "pandorica", "assault",
]);
const END_KINDS = new Set(["game-over", "end-game", "end"]);

/** Whether sounds are on in this browser (on unless the player turned them off). */
export function enabled() {
  try { return localStorage.getItem(KEY) !== "off"; } catch { return false; }
}

const cache = new Map();
/** Play one sound by name if sounds are on; true when it was started. */
export function play(name) {
  if (!NAMES.includes(name) || !enabled()) return false;
  let audio = cache.get(name);
  if (!audio) {
    audio = new Audio(`/static/sounds/${name}.wav`);
    audio.volume = 0.6;
    cache.set(name, audio);
  }
  audio.currentTime = 0;
  // a browser refuses sound before the first click on the page: that is fine, stay silent
  audio.play()?.catch?.(() => {});
  return true;
}

/** The cues an update calls for, most telling first: `events` are the told events that are
 * new in it; `seat` is this page's seat (null for a spectator). */
export function soundsFor(events, { seat = null, myTurn = false, wasMyTurn = false, over = false, wasOver = false } = {}) {
  const out = new Set();
  for (const e of events ?? []) {
    const d = e.data ?? {};
    if (e.kind === "open") out.add("door");
    else if (e.kind === "conflict") {
      // a seat in the conflict hears whether it won; a bystander hears the clash as a card
      const side = seat === d.attacker ? "attack" : seat === d.owner ? "defence" : null;
      out.add(side === null ? "card" : side === d.winner ? "won" : "lost");
    } else if (e.kind === "accusation") {
      // Clue: your own accusation is won or lost; another's is a card laid down
      out.add(seat !== null && d.actor === seat ? (d.right ? "won" : "lost") : "card");
    } else if (END_KINDS.has(e.kind)) out.add("end");
    else if (CARD_KINDS.has(e.kind)) out.add("card");
  }
  if (over && !wasOver) out.add("end");
  if (myTurn && !wasMyTurn && !over) out.add("your-turn");
  return PRIORITY.filter((n) => out.has(n));
}

/** Play the most telling cue of an update (see soundsFor); returns its name or null. */
export function cue(events, state) {
  const [first] = soundsFor(events, state);
  return first && play(first) ? first : null;
}

if (typeof window !== "undefined") window.timelordSound = { enabled, play, soundsFor, cue };
