#!/bin/sh
# Makes the secret files compose.yaml references, in secrets/ beside it (never committed: .gitignore). It never
# replaces a file that is there. Needs openssl. The files are made readable by uid 1000 (the app image's user).
#   secrets/anchor-signing-key.pem    Ed25519 key that signs the anchors (table-audit replay --anchors)
#   secrets/api-token-key.pem         Ed25519 key that signs and verifies the API's tokens (table-audit token/serve)
#   secrets/api-keys.json             the API's machine keys: one "machine" key, printed once, only its SHA-256 kept
#   secrets/grafana-admin-password    Grafana's admin password
# KurrentDB's certificates (secrets/kurrentdb/, for `--profile eventstoredb`) come from your certificate authority.
set -eu
cd "$(dirname "$0")"
umask 077
mkdir -p secrets
made() { echo "made $1"; if [ "$(id -u)" = 0 ]; then chown 1000:1000 "$1"; fi; }
for key in anchor-signing-key api-token-key; do
  f="secrets/$key.pem"
  if [ -e "$f" ]; then echo "kept $f (already there)"; else openssl genpkey -algorithm ed25519 -out "$f"; made "$f"; fi
done
f=secrets/api-keys.json
if [ -e "$f" ]; then echo "kept $f (already there)"; else
  key=$(openssl rand -hex 32)
  sha=$(printf '%s' "$key" | openssl dgst -sha256 -r | cut -d' ' -f1)
  printf '[{"name":"machine-1","sha256":"%s","role":"machine","concessionaire":null}]\n' "$sha" >"$f"
  made "$f"
  echo "the API key of machine-1 (shown once, not stored): $key"
fi
f=secrets/grafana-admin-password
if [ -e "$f" ]; then echo "kept $f (already there)"; else openssl rand -base64 24 | tr -d '\n' >"$f"; made "$f"; fi
