#!/bin/sh
# Counts of games selected by pgnkit select and pgn-extract (the Debian package) with the
# equivalent options, on one PGN file (default: the corpus's lichess-annotated folder joined).
# Usage: bench/select_compare.sh [PGNKIT_BINARY] [FILE]
# Output: one line per criterion: name, pgnkit's count, pgn-extract's count.
set -eu
PGNKIT=${1:-target/release/pgnkit}
PX=${PGN_EXTRACT:-$(command -v pgn-extract || echo /usr/games/pgn-extract)}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
CORPUS=${PGNKIT_CORPUS:-../shared/corpus}
FILE=${2:-$WORK/in.pgn}
if [ ! -e "$FILE" ]; then cat "$CORPUS"/lichess-annotated/*.pgn > "$FILE"; fi
count() { grep -c '^\[Event ' "$1" || true; }
ours() { "$PGNKIT" select "$FILE" --where "$1" -o "$WORK/ours.pgn" 2>/dev/null || true; count "$WORK/ours.pgn"; }
# pgn-extract, its arguments as given; several runs piped when a range needs two criteria.
theirs() { "$PX" -s "$@" -o "$WORK/theirs.pgn" "$FILE" 2>/dev/null || true; count "$WORK/theirs.pgn"; }
row() { printf '%-28s %8s %8s\n' "$1" "$2" "$3"; }

row criterion pgnkit pgn-extract
row all "$("$PGNKIT" select "$FILE" -o "$WORK/all.pgn" 2>/dev/null; count "$WORK/all.pgn")" "$(theirs)"

echo 'Player "DrDrunkenstein"' > "$WORK/player.txt"
row 'player (prefix)' "$(ours 'player =~ "^DrDrunkenstein"')" "$(theirs -t"$WORK/player.txt")"

echo 'Elo >= "2500"' > "$WORK/elo.txt"
row 'elo >= 2500' "$(ours 'elo >= 2500')" "$(theirs -t"$WORK/elo.txt")"

printf 'WhiteElo >= "2000"\n' > "$WORK/lo.txt"; printf 'WhiteElo < "2400"\n' > "$WORK/hi.txt"
"$PX" -s -t"$WORK/lo.txt" -o "$WORK/lo.pgn" "$FILE" 2>/dev/null || true
"$PX" -s -t"$WORK/hi.txt" -o "$WORK/range.pgn" "$WORK/lo.pgn" 2>/dev/null || true
row 'WhiteElo in [2000,2400)' "$(ours 'WhiteElo >= 2000 and WhiteElo < 2400')" "$(count "$WORK/range.pgn")"

printf 'Date >= "2019"\n' > "$WORK/d1.txt"; printf 'Date < "2022"\n' > "$WORK/d2.txt"
"$PX" -s -t"$WORK/d1.txt" -o "$WORK/d1.pgn" "$FILE" 2>/dev/null || true
"$PX" -s -t"$WORK/d2.txt" -o "$WORK/drange.pgn" "$WORK/d1.pgn" 2>/dev/null || true
row 'Date in [2019,2022)' "$(ours 'Date >= 2019 and Date < 2022')" "$(count "$WORK/drange.pgn")"

row 'plies in [40,80]' "$(ours 'plies >= 40 and plies <= 80')" "$(theirs -pl40 -pu80)"
row 'result 1-0' "$(ours 'result = 1-0')" "$(theirs -Tr1-0)"

FEN='r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3'
echo "FEN \"$FEN\"" > "$WORK/fen.txt"
row 'reaches Ruy Lopez' "$(ours "reaches \"$FEN\"")" "$(theirs -t"$WORK/fen.txt")"

echo '1 rp r' > "$WORK/mat.txt"
row 'material KRPkr' "$(ours 'material "KRPkr"')" "$(theirs -z"$WORK/mat.txt")"
echo 'q r' > "$WORK/mat2.txt"
row 'material KQkr (2 plies)' "$(ours 'material "KQkr"')" "$(theirs -z"$WORK/mat2.txt")"

row 'dedupe' "$("$PGNKIT" dedupe "$FILE" -o "$WORK/d.pgn" 2>/dev/null; count "$WORK/d.pgn")" "$(theirs -D)"
