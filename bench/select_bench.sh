#!/bin/sh
# pgnkit select / dedupe / classify against pgn-extract (the Debian package) on one file,
# alternating the two, PAIRS measured pairs after one warm-up pair; wall seconds, user+sys CPU
# seconds and peak RSS from /usr/bin/time (Debian package `time`). Prints one line per run and,
# per task, the median wall times and their ratio (pgn-extract / pgnkit).
# Usage: bench/select_bench.sh [PGNKIT_BINARY] [FILE] [PAIRS]
# Then, for dedupe's memory, the file repeated 4 times (peak RSS of one run each).
set -eu
PGNKIT=${1:-target/release/pgnkit}
FILE=${2:-/work/bench/bench.pgn}
PAIRS=${3:-3}
PX=${PGN_EXTRACT:-$(command -v pgn-extract || echo /usr/games/pgn-extract)}
ECO=${PGN_EXTRACT_ECO:-/usr/share/pgn-extract/eco.pgn}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
echo 'Player "Tal"' > "$WORK/player.txt"
echo 'Elo >= "2500"' > "$WORK/elo.txt"

# run LABEL COMMAND...: prints "LABEL wall cpu rss_kb"
run() {
    label=$1; shift
    /usr/bin/time -f "%e %U %S %M" -o "$WORK/time" "$@" >/dev/null 2>&1 || true
    read -r wall user sys rss < "$WORK/time"
    echo "$label $wall $(echo "$user + $sys" | bc) $rss"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

task() {
    name=$1; ours=$2; theirs=$3
    : > "$WORK/$name.ours"; : > "$WORK/$name.theirs"
    i=0
    while [ $i -le "$PAIRS" ]; do
        o=$(eval "run ours $ours"); t=$(eval "run pgn-extract $theirs")
        if [ $i -gt 0 ]; then
            echo "$o" | awk '{print $2, $3, $4}' >> "$WORK/$name.ours"
            echo "$t" | awk '{print $2, $3, $4}' >> "$WORK/$name.theirs"
        fi
        i=$((i + 1))
    done
    ow=$(awk '{print $1}' "$WORK/$name.ours" | median); tw=$(awk '{print $1}' "$WORK/$name.theirs" | median)
    oc=$(awk '{print $2}' "$WORK/$name.ours" | median); tc=$(awk '{print $2}' "$WORK/$name.theirs" | median)
    om=$(awk '{print $3}' "$WORK/$name.ours" | median); tm=$(awk '{print $3}' "$WORK/$name.theirs" | median)
    printf '%-10s pgnkit %6.2f s (cpu %6.2f s, %7d KB)  pgn-extract %6.2f s (cpu %6.2f s, %7d KB)  wall ratio %5.1fx  cpu ratio %5.1fx\n' \
        "$name" "$ow" "$oc" "$om" "$tw" "$tc" "$tm" "$(echo "$tw / $ow" | bc -l)" "$(echo "$tc / $oc" | bc -l)"
}

task player "\"$PGNKIT\" select \"$FILE\" --where 'player =~ \"^Tal\"' -o /dev/null" "\"$PX\" -s -t\"$WORK/player.txt\" -o /dev/null \"$FILE\""
task elo "\"$PGNKIT\" select \"$FILE\" --where 'elo >= 2500' -o /dev/null" "\"$PX\" -s -t\"$WORK/elo.txt\" -o /dev/null \"$FILE\""
task dedupe "\"$PGNKIT\" dedupe \"$FILE\" -o /dev/null" "\"$PX\" -s -D -o /dev/null \"$FILE\""
task classify "\"$PGNKIT\" classify \"$FILE\" -o /dev/null" "\"$PX\" -s -e\"$ECO\" -o /dev/null \"$FILE\""

cat "$FILE" "$FILE" "$FILE" "$FILE" > "$WORK/x4.pgn"
echo "dedupe on the file x4 ($(wc -c < "$WORK/x4.pgn") bytes), one run each:"
run "  pgnkit dedupe        (wall cpu rss_kb)" "$PGNKIT" dedupe "$WORK/x4.pgn" -o /dev/null
run "  pgnkit dedupe -t1    (wall cpu rss_kb)" "$PGNKIT" dedupe --threads 1 "$WORK/x4.pgn" -o /dev/null
run "  pgn-extract -D       (wall cpu rss_kb)" "$PX" -s -D -o /dev/null "$WORK/x4.pgn"
