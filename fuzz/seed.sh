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
for t in lexer reader export_roundtrip fen san decode ranges query epd classify records python_api index; do
    mkdir -p "$out/$t"
done

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

# records: PGN as the reader's seeds.
cp "$out"/reader/* "$out/records/" 2>/dev/null || true

# decode: a plan (format byte, cut byte, no flips, then the text; see
# fuzz/src/inputs.rs): a few corpus games in each of the ten formats the target
# stores them in, and the same games compressed by the command-line tools where
# they are installed (format byte 0: the file as it is).
j=0
for f in $(ls "$out"/reader/c*.pgn 2>/dev/null | awk 'NR % 8 == 1' | head -n 40); do
    j=$((j + 1))
    for k in 0 1 2 3 4 5 6 7 8 9; do
        { printf "\\$(printf %o "$k")\\200\\000"; cat "$f"; } > "$out/decode/plan-$j-$k"
    done
    tool() { # tool NAME COMMAND...: the file compressed by COMMAND, if NAME is installed
        name=$1; shift
        command -v "$name" >/dev/null 2>&1 || return 0
        { printf '\000\000\000'; "$@" < "$f"; } > "$out/decode/$name-$j" 2>/dev/null || rm -f "$out/decode/$name-$j"
    }
    tool zstd zstd -q -c
    tool gzip gzip -c
    tool bzip2 bzip2 -c
    tool xz xz -c
    tool pzstd sh -c 'pzstd -q -c -p 2 2>/dev/null'
done

# ranges: 3 cuts (at a quarter, a half, three quarters), plain (even) or pzstd
# with 3 frames (5), then four corpus games together.
j=0
ls "$out"/reader/c*.pgn 2>/dev/null | head -n 120 | paste - - - - | while read -r a b c d; do
    j=$((j + 1))
    for layout in 000 005; do
        { printf '\003\000\100\000\200\000\300\'$layout; cat "$a" "$b" "$c" "$d"; } > "$out/ranges/r$j-$layout"
    done
done

# query: the examples of docs/select.md and the crate docs, at nesting 0 and 2.
i=0
for q in 'player ~ "Anand" and WhiteElo >= 2700 and eco = B90' \
    'player = "Spassky" and elo >= 2700 and Date >= "1990" and plies < 10' \
    'reaches "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"' \
    'material "KQkr" or not (result = 1-0 or result = "1/2-1/2")' \
    'White =~ "(?i)^carl" and elo_diff > 100 and TimeControl <= 180' \
    'not Event = "x" and UTCDate >= 2024.01 and Round != 3'; do
    i=$((i + 1))
    printf '\000%s' "$q" > "$out/query/q$i"
    printf '\002%s' "$q" > "$out/query/q$i-nested"
done

# epd: the first records of every .epd file, whole.
find "$shared" -name '*.epd' | sort | while read -r f; do
    head -n 10 "$f" | while IFS= read -r line; do
        i=$((i + 1)); printf '%s' "$line" > "$out/epd/$(basename "$f" .epd)-$i"
    done
done

# classify: move choices (each byte picks a legal move by its index).
for n in 1 2 3 4 5 6 7 8; do
    printf 'q3Zk9Lm0Ab7Xw2Pe5Rt8Yu1Io4Sd6Fg3Hj7Kl0Zx' | head -c $((n * 5)) > "$out/classify/line-$n"
done
printf '\000\000\000\000\000\000' > "$out/classify/firsts"

# python_api: flags, a FEN, moves, then a corpus game.
j=0
for f in $(ls "$out"/reader/c*.pgn 2>/dev/null | head -n 40); do
    j=$((j + 1))
    { printf '\004rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\ne4 e7e5 Nf3 O-O\n'; cat "$f"; } > "$out/python_api/p$j"
done

# index: for each of the index's files, each way of damaging it (see the target).
for f in 0 1 2 3 4 5 6 7 8 9; do
    for how in 0 1 2; do
        printf "\\$(printf %03o "$f")\\$(printf %03o "$how")\\040\\000\\377\\377\\000\\001" > "$out/index/f$f-$how"
    done
done

# Every crash found and fixed (fuzz/findings/<target>/, committed): each run starts by
# running them again, so a fixed finding stays fixed.
for d in "$here"/findings/*/; do
    t=$(basename "$d")
    [ -d "$out/$t" ] || { echo "fuzz/findings/$t: no such target" >&2; exit 1; }
    cp "$d"* "$out/$t/"
done

for t in lexer reader export_roundtrip fen san decode ranges query epd classify records python_api index; do
    echo "$t: $(ls "$out/$t" | wc -l) seeds"
done
