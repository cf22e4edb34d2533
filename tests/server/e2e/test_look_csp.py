"""static/motion.js, log.js and sound.js under the strict Content Security Policy the site is
moving to (script-src 'self', no inline script or style): they run and the browser reports no
violation (issue 34 work must not need anything the policy blocks)."""

from __future__ import annotations

from typing import Any

POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:"

EXERCISE = """async () => {
  window.violations = [];
  document.addEventListener('securitypolicyviolation', (e) =>
    window.violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`));
  const box = document.createElement('div');
  document.querySelector('main').prepend(box);
  box.innerHTML = '<div class="hand"><div class="card" data-card="1">One</div></div>'
    + '<p>between the hand and the table</p><div class="t"></div>';
  const before = window.timelordMotion.capture(box);
  box.querySelector('.t').append(box.querySelector('[data-card="1"]'));
  const anims = window.timelordMotion.play(box, before);
  box.append(window.timelordLog.render(
    [{kind: 'x', text: 'You play Key (red)', data: {actor: 0}}],
    {seat: 0, names: ['A', 'B'], glossary: {'Key (red)': {text: 'Opens red doors'}}}));
  box.querySelector('[data-chip]').click();
  window.timelordLog.drawers();
  window.timelordLog.announce('Your turn');
  window.timelordSound.play('door');
  await Promise.all(anims.map((a) => a.finished));
  await new Promise((r) => setTimeout(r, 300));
  return { anims: anims.length, violations: window.violations };
}"""


def test_the_look_modules_need_nothing_a_strict_policy_blocks(
    server: str, moving_page: Any
) -> None:
    page = moving_page

    def strict(route: Any) -> None:
        response = route.fetch()
        headers = {**response.headers, "content-security-policy": POLICY}
        route.fulfill(response=response, headers=headers)

    page.route(f"{server}/how-to-play/keys", strict)
    page.goto(f"{server}/how-to-play/keys")
    for name, module in (("timelordMotion", "motion"), ("timelordLog", "log"),
                         ("timelordSound", "sound")):  # fmt: skip
        page.add_script_tag(url=f"/static/{module}.js", type="module")
        page.wait_for_function(f"() => !!window.{name}")
    seen = page.evaluate(EXERCISE)
    assert seen["anims"] == 1
    assert seen["violations"] == []
    assert not page.errors
