// What this browser remembers of the tables it sits at (local storage), and how it tells its
// player that something needs them: a short sound (which can be muted) and, while the tab is
// hidden and the player allowed it, a browser notification.

const KEY = "timelord.tables";
const SOUND = "timelord.sound";

/** {tableId: {url, seat, game, name, owner?, at}} */
export function remembered() {
  try { return JSON.parse(localStorage.getItem(KEY) ?? "{}") ?? {}; } catch { return {}; }
}

/** Remember (or update) a table this browser holds a link or the creator's token for. */
export function remember(tableId, entry) {
  const all = remembered();
  all[tableId] = { ...(all[tableId] ?? {}), ...entry, at: Date.now() };
  localStorage.setItem(KEY, JSON.stringify(all));
}

export function forget(tableId) {
  const all = remembered();
  delete all[tableId];
  localStorage.setItem(KEY, JSON.stringify(all));
}

export function soundOn() { return localStorage.getItem(SOUND) !== "off"; }

/** Wire a button that mutes and unmutes the sounds. */
export function soundToggle(button) {
  if (!button) return;
  const show = () => {
    button.textContent = soundOn() ? "Sound on" : "Sound off";
    button.setAttribute("aria-pressed", String(soundOn()));
  };
  button.addEventListener("click", () => {
    localStorage.setItem(SOUND, soundOn() ? "off" : "on");
    show();
    if (soundOn()) askToNotify();
  });
  show();
}

/** Ask once whether this browser may notify its player, at a moment that explains itself:
 * a click that starts waiting for other people (a table with a friend or an open seat, a
 * seat claimed) or that turns the sound on; the browser remembers the answer. */
export function askToNotify() {
  if ("Notification" in window && Notification.permission === "default") {
    try { Notification.requestPermission(); } catch { /* an old browser's callback form */ }
  }
}

let audio = null;
/** A short two-note chime, and a notification while the page is hidden. */
export function alertPlayer(message) {
  if (soundOn()) {
    try {
      audio = audio ?? new AudioContext();
      const now = audio.currentTime;
      for (const [i, freq] of [[0, 660], [1, 880]]) {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.12, now + i * 0.15);
        gain.gain.exponentialRampToValueAtTime(0.001, now + i * 0.15 + 0.14);
        osc.connect(gain).connect(audio.destination);
        osc.start(now + i * 0.15);
        osc.stop(now + i * 0.15 + 0.15);
      }
    } catch { /* no audio here */ }
  }
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    try { new Notification("timelord", { body: message }); } catch { /* not allowed */ }
  }
}

/** Seconds as a clock shows them: 1:05:09, 4:07, 0:09; days for async deadlines. */
export function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s >= 86400) return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return `${h ? `${h}:` : ""}${mm}:${String(r).padStart(2, "0")}`;
}
