// Small helpers shared by the lobby and the table pages.
import { h } from "./dom.js";

/** Fetch JSON (or text); resolves to {ok, status, data}. Never throws on HTTP errors. */
export async function call(method, url, body, want = "json") {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    return { ok: false, status: 0, data: { code: "net/down", reason: String(err) } };
  }
  let data = null;
  const text = await response.text();
  if (want === "text" && response.ok) {
    data = text;
  } else {
    try { data = text ? JSON.parse(text) : null; } catch { data = { reason: text }; }
  }
  return { ok: response.ok, status: response.status, data };
}

/** What a player reads when the server cannot be reached at all (a fetch that failed). */
export const UNREACHABLE = "The server cannot be reached. This page keeps trying and will reconnect by itself when it is back.";

/** The readable reason of an API error body (FastAPI's {detail} or our {code, reason}). */
export function reason(data) {
  if (!data) return "no answer";
  if (typeof data === "string") return data;
  if (data.code === "net/down") return UNREACHABLE;
  const d = data.detail ?? data;
  if (typeof d === "string") return d;
  if (Array.isArray(d)) return d.map((x) => x.msg ?? JSON.stringify(x)).join("; ");
  const parts = [d.reason ?? d.message ?? JSON.stringify(d)];
  if (d.rule) parts.push(`(rule ${d.rule})`);
  return parts.join(" ");
}

/** A rule clause as a link to its anchor on the game's rules page, and the game's short
 * page for people beside it (both open beside the table): nodes to append to a message. */
export function ruleLink(game, rule) {
  if (!game) return rule ? document.createTextNode(` (rule ${rule})`) : null;
  const g = encodeURIComponent(game);
  const howto = h("a", { class: "rule howto-link", target: "_blank", href: `/how-to-play/${g}` }, "how to play");
  if (!rule) return h("span", {}, " (", howto, ")");
  const clause = h("a", { class: "rule", target: "_blank", href: `/rules/${g}#${encodeURIComponent(rule)}` }, rule);
  return h("span", {}, " (rule ", clause, "; ", howto, ")");
}

let toastTimer = null;
/** Show a short message (errors, refused moves) in the toast; `extra`: a node to append
 * (a rule's link, from ruleLink), which keeps the toast up longer so it can be clicked. */
export function toast(message, kind = "error", extra = null) {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = message;
  if (extra) el.append(extra);
  el.className = kind;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, extra ? 9000 : 5000);
}

/** Tables from GET /api/tables, whatever envelope the server uses. */
export function tableList(data) {
  if (Array.isArray(data)) return data;
  if (data && Array.isArray(data.tables)) return data.tables;
  return [];
}

/** Whether a listed table has finished. */
export function isFinished(t) {
  const s = String(t.status ?? "").toLowerCase();
  return t.over === true || s === "over" || s === "finished" || s === "done";
}
