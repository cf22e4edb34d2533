// Learn to play: start a lesson table and open its learner's seat. The table page walks the
// lesson (see lessonStep in table.js) from what is kept for it in this tab's sessionStorage.
import { call, reason, toast } from "./api.js";

const box = document.getElementById("learn");
const game = box.dataset.game;

/** Where a lesson table's plan and seat tokens are kept for the table page. */
export function lessonKey(tableId) { return `timelord.lesson.${tableId}`; }

document.getElementById("start-lesson").addEventListener("click", async (e) => {
  e.target.disabled = true;
  const res = await call("POST", `/api/learn/${encodeURIComponent(game)}`);
  e.target.disabled = false;
  if (!res.ok) { toast(`The lesson cannot start: ${reason(res.data)}`); return; }
  const t = res.data;
  const kept = { lesson: t.lesson, plan: t.plan, tokens: t.seats.map((s) => s.token) };
  sessionStorage.setItem(lessonKey(t.id), JSON.stringify(kept));
  location.href = `${t.seats[0].url}&lesson=1`;
});
