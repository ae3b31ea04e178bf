#!/usr/bin/env bash
# The Debian packages dogcase needs beside Python's: what WeasyPrint renders the issued documents with (Pango,
# and the fonts the documents are set in: nothing is downloaded at run time), and poppler-utils (pdftotext and
# pdffonts, with which the tests read the PDFs back; pdfunite, which puts the day's mail in one PDF). Installs the missing ones with apt as root; as anyone
# else, names them and fails.
#
# The fonts: DejaVu sets the text; a name or an address in another script is drawn from Noto (Debian's
# fonts-noto-core: Latin, Greek, Cyrillic, Arabic, Hebrew, Devanagari, Thai and most other scripts;
# fonts-noto-cjk: Chinese, Japanese and Korean; fonts-noto-color-emoji: emoji), so that no owner's name
# prints as empty boxes (docs/cases.md, "Documents").
set -euo pipefail

packages=(
    libpango-1.0-0 libpangoft2-1.0-0 poppler-utils
    fonts-dejavu-core fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji
)
missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
    exit 0
fi
if [[ $(id -u) -ne 0 ]]; then
    echo "system-packages.sh: missing Debian packages: sudo apt-get install ${missing[*]}" >&2
    exit 1
fi
echo "system-packages.sh: installing ${missing[*]} from Debian" >&2
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y --no-install-recommends "${missing[@]}"; then
    apt-get update
    apt-get install -y --no-install-recommends "${missing[@]}"
fi
