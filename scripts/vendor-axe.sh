#!/usr/bin/env bash
# Fetch axe-core from the npm registry (`npm pack`, no node_modules) into tests/browser/vendor/: axe.min.js,
# its licence files, and its version and checksum. The browser tests read the committed copy, so a clean clone
# runs them without the network; run this only to move to another version: AXE_VERSION=4.x.y scripts/vendor-axe.sh
# axe-core is used by the tests only; it is never served by dogcase.
set -euo pipefail
cd "$(dirname "$0")/.."
version="${AXE_VERSION:-4.14.1}"
dest=tests/browser/vendor
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v npm >/dev/null || { echo "npm is missing (apt-get install npm)" >&2; exit 1; }
(cd "$tmp" && npm pack --silent "axe-core@$version" >/dev/null && tar xzf "axe-core-$version.tgz")
mkdir -p "$dest"
cp "$tmp/package/axe.min.js" "$dest/axe.min.js"
cp "$tmp/package/LICENSE" "$dest/axe-core.LICENSE.txt"
cp "$tmp/package/LICENSE-3RD-PARTY.txt" "$dest/axe-core.LICENSE-3RD-PARTY.txt"
{
  echo "axe-core $version (npm registry, MPL-2.0), axe.min.js only; refreshed by scripts/vendor-axe.sh"
  (cd "$dest" && sha256sum axe.min.js | sed 's/^/sha256 /')
} > "$dest/axe-core.VERSION"
echo "axe-core $version in $dest"
