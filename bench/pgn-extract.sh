#!/bin/sh
# Issue 33's speed figure: each game-event predicate and each transform of pgnkit against
# pgn-extract (the Debian package, 19.04) doing the same on one file, the two alternating,
# PAIRS measured pairs after one warm-up pair; wall seconds and user+sys CPU seconds from
# /usr/bin/time (Debian package `time`). Prints, per task, the median wall and CPU times and
# their ratios (pgn-extract / pgnkit): the table of docs/performance.md.
# Usage: bench/pgn-extract.sh [FILE] [PAIRS] [PGNKIT_BINARY]
#   FILE: default target/bench.pgn (where the benches look), built by
#   ../shared/corpus/bench-file.sh when missing.
#   TASKS="checkmate fifty" runs only those tasks (names as printed).
# Both programs write to /dev/null; pgn-extract gets -s (silent), pgnkit --warnings none.
set -eu
FILE=${1:-target/bench.pgn}
PAIRS=${2:-3}
PGNKIT=${3:-target/release/pgnkit}
PX=${PGN_EXTRACT:-$(command -v pgn-extract || echo /usr/games/pgn-extract)}
CORPUS=${PGNKIT_CORPUS:-../shared/corpus}
if [ ! -e "$FILE" ]; then
    mkdir -p "$(dirname "$FILE")"
    "$CORPUS/bench-file.sh" "$FILE"
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
printf 'Result\nWhite\nBlack\nDate\nEvent\nSite\nRound\nWhiteElo\nECO\n' > "$WORK/order.txt"

# run COMMAND...: prints "wall cpu"
run() {
    /usr/bin/time -f "%e %U %S" -o "$WORK/time" "$@" >/dev/null 2>&1 || true
    read -r wall user sys < "$WORK/time"
    echo "$wall $(echo "$user + $sys" | bc)"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# task NAME "PGN-EXTRACT ARGS" PGNKIT ARG...: pgn-extract's arguments are split as the shell
# splits words; pgnkit's are given one by one.
task() {
    name=$1; theirs=$2; shift 2
    case " ${TASKS:-$name} " in *" $name "*) ;; *) return 0 ;; esac
    : > "$WORK/ours"; : > "$WORK/theirs"
    i=0
    while [ $i -le "$PAIRS" ]; do
        o=$(run "$PGNKIT" "$@" --warnings none -o /dev/null "$FILE")
        # shellcheck disable=SC2086 # split on purpose
        t=$(run "$PX" -s $theirs -o /dev/null "$FILE")
        if [ $i -gt 0 ]; then
            echo "$o" >> "$WORK/ours"
            echo "$t" >> "$WORK/theirs"
        fi
        i=$((i + 1))
    done
    ow=$(awk '{print $1}' "$WORK/ours" | median); tw=$(awk '{print $1}' "$WORK/theirs" | median)
    oc=$(awk '{print $2}' "$WORK/ours" | median); tc=$(awk '{print $2}' "$WORK/theirs" | median)
    ratio() { echo "$1 $2" | awk '{ if ($2 > 0) printf "%.1f", $1 / $2; else print "-" }'; }
    printf '| %-16s | %7.2f | %7.2f | %7.2f | %7.2f | %6sx | %6sx |\n' \
        "$name" "$ow" "$oc" "$tw" "$tc" "$(ratio "$tw" "$ow")" "$(ratio "$tc" "$oc")"
}

echo "$(wc -c < "$FILE") bytes, $PAIRS pairs; medians in seconds"
echo '| task | pgnkit wall | pgnkit cpu | pgn-extract wall | pgn-extract cpu | wall ratio | cpu ratio |'
echo '|---|---:|---:|---:|---:|---:|---:|'
# Game-event predicates.
task checkmate "--checkmate" select --where "checkmate"
task stalemate "--stalemate" select --where "stalemate"
task fifty "--fifty" select --where "fifty_moves"
task repetition "--repetition" select --where "threefold"
task underpromotion "--underpromotion" select --where "underpromotion"
task nobadresults "--nobadresults" select --where "result_consistent"
task hash "-H644d4afe02564aeb" select --where 'hash 0x644d4afe02564aeb'
task plies "-pl40 -pu80" select --where 'plies >= 40 and plies <= 80'
task moves "-bl30" select --where 'moves >= 30'
task onlysetup "--onlysetuptags" select --where "setup"
task nosetup "--nosetuptags" select --where "not setup"
# Transforms and writing switches.
task plylimit "--plylimit 20" select --truncate-plies 20
task dropply "--dropply 10" select --drop-plies 10
task totalplycount "--totalplycount" select --total-ply-count
task plycount "--plycount" select --add-ply-count
task fencomments "--fencomments --nofauxep" select --fen-comments
task hashcomments "--hashcomments" select --hash-comments
task splitvariants "--splitvariants" select --split-variations
task seven "-7" select --seven-tags
task tag-order "-R$WORK/order.txt" select --tag-order "$WORK/order.txt"
task notags "--notags" select --no-tags
task nochecks "--nochecks" select --no-checks
task nomovenumbers "--nomovenumbers" select --no-move-numbers
task noresults "--noresults" select --no-results
task selectonly "--selectonly 1:1000000" select --select-only 1:1000000
task skipmatching "--skipmatching 1:1000" select --skip-matching 1:1000
task stopafter "--stopafter 30000" select --stop-after 30000
task addhashcode "--addhashcode" select --add-hash-code
task commentlines "--commentlines" select --comment-lines
task nocomments "-C" select --no-comments
task novariations "-V" select --no-variations
task xlalg "-Wxlalg" select --notation xlalg
