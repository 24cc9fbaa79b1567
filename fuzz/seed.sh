#!/bin/sh
# Seeds fuzz/corpus/<target>/ from the conformance fixtures and the shared
# corpus (PGNKIT_CORPUS, default ../shared/corpus beside the workspace).
# Nothing it writes is committed: fuzz/corpus is ignored by git.
#
#   sh fuzz/seed.sh            # from anywhere
#   PER_FILE=50 sh fuzz/seed.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
shared=${PGNKIT_CORPUS:-$root/../shared/corpus}
per_file=${PER_FILE:-40}
[ -d "$shared" ] || { echo "no corpus at $shared (set PGNKIT_CORPUS)" >&2; exit 1; }
out=$here/corpus
mkdir -p "$out/lexer" "$out/reader" "$out/export_roundtrip" "$out/fen" "$out/san"

# PGN targets: every fixture whole, and the first games of every corpus
# file, one game a file (a game starts at a line `[Event `).
n=0
for f in "$root"/tests/conformance/*/*.pgn; do
    for t in lexer reader export_roundtrip; do cp "$f" "$out/$t/fixture-$(basename "$f")"; done
done
find "$shared" -name '*.pgn' | sort | while read -r f; do
    n=$((n + 1))
    awk -v dir="$out/reader" -v stem="c$n" -v max="$per_file" '
        /^\[Event / { g++; if (g > max) exit }
        g > 0 && g <= max { print > (dir "/" stem "-" g ".pgn") }
    ' "$f"
done
for f in "$out"/reader/c*.pgn; do
    [ -e "$f" ] || continue
    # libFuzzer's default -max_len is 4096: keep the seeds that fit.
    if [ "$(wc -c < "$f")" -le 4096 ]; then
        cp "$f" "$out/lexer/"; cp "$f" "$out/export_roundtrip/"
    else
        rm "$f"
    fi
done

# FEN: positions and perft suites, one FEN a file (fields up to the move counters).
i=0
find "$shared/positions" "$shared/perft" "$shared/chess960" -name '*.epd' | sort | while read -r f; do
    head -n "$per_file" "$f" | cut -d';' -f1 | while read -r line; do
        i=$((i + 1)); printf '%s' "$line" > "$out/fen/$(basename "$f" .epd)-$i"
    done
done
grep -h '^\[FEN "' "$root"/tests/conformance/*/*.pgn | sed 's/^\[FEN "\(.*\)"\]\r*$/\1/' |
    while read -r line; do i=$((i + 1)); printf '%s' "$line" > "$out/fen/fixture-$i"; done

# SAN: the distinct move tokens of the fixtures (after dropping comments,
# strings and move numbers), one a file.
cat "$root"/tests/conformance/*/*.pgn | grep -av '^\[' | sed 's/{[^}]*}//g; s/;.*$//' |
    tr ' ()' '\n\n\n' | sed 's/^[0-9]*\.*//' | grep -v '^$' | sort -u |
    while read -r tok; do i=$((i + 1)); printf '%s' "$tok" > "$out/san/tok-$i"; done

for t in lexer reader export_roundtrip fen san; do
    echo "$t: $(ls "$out/$t" | wc -l) seeds"
done
