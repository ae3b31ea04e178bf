#!/usr/bin/env bash
# The Debian packages dogcase needs beside Python's: what WeasyPrint renders the issued documents with (Pango,
# and the DejaVu fonts the documents are set in: nothing is downloaded at run time), and poppler-utils
# (pdftotext, with which the tests read the PDFs back). Installs the missing ones with apt as root; as anyone
# else, names them and fails.
set -euo pipefail

packages=(libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core poppler-utils)
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
