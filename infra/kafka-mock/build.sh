#!/usr/bin/env bash
# Builds infra/kafka-mock/build/mock-broker from mock-broker.c against the system librdkafka (Debian's
# librdkafka-dev), only when the binary is missing or older than the source or this script. Safe to run from
# several processes at once: each compiles to its own temporary file and renames it into place.
# Environment: CC (default cc), CFLAGS (default -O2 -g), FORCE=1 to rebuild regardless.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
src="$here/mock-broker.c"
out_dir="$here/build"
out="$out_dir/mock-broker"

if [[ "${FORCE:-}" != 1 && -x "$out" && "$out" -nt "$src" && "$out" -nt "${BASH_SOURCE[0]}" ]]; then
  exit 0
fi

fail() {
  echo "kafka-mock: $1" >&2
  echo "kafka-mock:   $2" >&2
  exit 1
}
apt_hint="apt-get update && apt-get install -y librdkafka-dev"

cc="${CC:-cc}"
command -v "$cc" >/dev/null 2>&1 || fail "no C compiler ('$cc' not found)" "apt-get install -y gcc (or set CC)"
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists rdkafka 2>/dev/null; then
  flags_c="$(pkg-config --cflags rdkafka)"
  flags_l="$(pkg-config --libs rdkafka)"
  version="$(pkg-config --modversion rdkafka)"
else
  # No pkg-config (or no rdkafka.pc): Debian's standard paths.
  flags_c=""
  flags_l="-lrdkafka"
  version="unknown version"
fi
header=""
for dir in $(echo "$flags_c" | tr ' ' '\n' | sed -n 's/^-I//p') /usr/include /usr/local/include; do
  [[ -z "$header" && -f "$dir/librdkafka/rdkafka_mock.h" ]] && header="$dir/librdkafka/rdkafka_mock.h"
done
[[ -n "$header" ]] ||
  fail "librdkafka-dev is missing (no librdkafka/rdkafka_mock.h); the mock Kafka broker is built from it" "$apt_hint"

mkdir -p "$out_dir"
tmp="$(mktemp "$out_dir/.mock-broker.XXXXXX")"
trap 'rm -f "$tmp"' EXIT
# shellcheck disable=SC2086
if ! "$cc" -std=c11 ${CFLAGS:--O2 -g} -Wall -Wextra -Werror=implicit-function-declaration \
  $flags_c -o "$tmp" "$src" $flags_l; then
  fail "compiling $src failed (librdkafka $version, $header)" "is librdkafka-dev complete? $apt_hint"
fi
chmod 755 "$tmp"
mv -f "$tmp" "$out"
trap - EXIT
echo "kafka-mock: built $out (librdkafka $version)" >&2
