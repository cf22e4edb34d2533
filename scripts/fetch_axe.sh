#!/usr/bin/env bash
# Fetch axe-core (the npm package, MPL-2.0) for the accessibility tests ONLY: it lands in
# .cache/axe-core/axe.min.js (git-ignored, outside the package, never served to players) and
# tests/server/e2e/test_axe.py injects it into Chromium through Playwright. Nothing is
# loaded from a CDN. With npm (Debian: apt-get install npm) the pinned npm release is used;
# without it, the copy of axe-core that the PyPI wheel axe-playwright-python bundles.
set -euo pipefail
cd "$(dirname "$0")/.."
AXE_VERSION=4.10.3
dest=.cache/axe-core
[ -s "$dest/axe.min.js" ] && grep -q "axe v$AXE_VERSION" "$dest/axe.min.js" 2>/dev/null && exit 0
mkdir -p "$dest"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if command -v npm >/dev/null; then
  (cd "$tmp" && npm pack --silent "axe-core@$AXE_VERSION" >/dev/null && tar -xzf "axe-core-$AXE_VERSION.tgz")
  cp "$tmp/package/axe.min.js" "$dest/axe.min.js"
  cp "$tmp/package/LICENSE" "$dest/LICENSE"
else
  python3 -m pip download --quiet --no-deps -d "$tmp" 'axe-playwright-python==0.1.8'
  python3 -c "import sys, zipfile, glob; z = zipfile.ZipFile(glob.glob(sys.argv[1] + '/*.whl')[0]); open(sys.argv[2], 'wb').write(z.read('axe_playwright_python/axe.min.js'))" "$tmp" "$dest/axe.min.js"
fi
echo "axe-core for the tests: $(head -c 120 "$dest/axe.min.js" | grep -o 'axe v[0-9.]*' || echo '?') in $dest"
