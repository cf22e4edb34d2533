// The lobby's account forms: sign up, log in, rename, set a password, log out. The session
// lives in an HttpOnly cookie the server sets; this page never sees it, and keeps nothing.
import { call, reason, toast } from "./api.js";

function fields(form) {
  const body = {};
  for (const input of form.querySelectorAll("input")) {
    if (input.value !== "") body[input.name] = input.value;
  }
  return body;
}

function on(id, method, url, done) {
  const form = document.getElementById(id);
  if (!form) return;
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const res = await call(method, url, fields(form));
    if (!res.ok) { toast(reason(res.data)); return; }
    done(res.data);
  });
}

const reload = () => location.reload();
on("sign-up", "POST", "/api/players", reload);
on("log-in", "POST", "/api/session", reload);
on("rename", "PATCH", "/api/session", reload);
on("set-password", "PATCH", "/api/session", () => toast("Password set; other devices are logged out", "info"));

const out = document.getElementById("log-out");
if (out) out.addEventListener("click", async () => { await call("DELETE", "/api/session"); reload(); });
