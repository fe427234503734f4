#!/usr/bin/env bash
# Install the Debian packages the tests use, where this machine allows it (root with apt-get):
# libmetis-doc (METIS example meshes), wordnet-base (WordNet), chromium + chromium-driver (the
# real-browser JupyterLab test). Never fails: without them those tests skip, naming the package.
set -uo pipefail
DEBIAN_PACKAGES=(libmetis-doc wordnet-base chromium chromium-driver)
command -v apt-get >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1 || exit 0
missing=()
for p in "${DEBIAN_PACKAGES[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
((${#missing[@]})) || exit 0
if [ "$(id -u)" != 0 ]; then
  echo "not root: the tests needing ${missing[*]} will skip (sudo apt-get install ${missing[*]})"
  exit 0
fi
apt-get update -qq || echo "apt-get update failed; the tests needing ${missing[*]} will skip"
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" \
  || echo "apt-get install ${missing[*]} failed; the tests needing them will skip"
exit 0
