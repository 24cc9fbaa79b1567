#!/bin/sh
# Soak test (not in CI; CPU heavy: run it alone, it runs under `nice -n 19`): `convert`,
# `select` and `export` over the bench file repeated to about 1 GB, as plain text and as .zst,
# sampling each run's resident memory (VmRSS) once a second. Prints, per run, the wall time,
# the peak RSS and the slope of RSS over the run's second half (MB per minute, by least
# squares: a leak shows as a slope well above 0 once buffers have filled), as the rows of the
# table in docs/reliability.md, and keeps the samples in $OUT/*.rss (seconds, kB).
# Usage: bench/soak.sh [PGNKIT_BINARY] [BENCH_FILE] [SIZE_MB] [OUT_DIR]
set -eu
PGNKIT=${1:-target/release/pgnkit}
BENCH=${2:-target/bench.pgn}
SIZE_MB=${3:-1024}
OUT=${4:-target/soak}
mkdir -p "$OUT"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/pgnkit-soak.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM

[ -x "$PGNKIT" ] || { echo "no pgnkit binary at $PGNKIT: cargo build --release -p pgnkit-cli" >&2; exit 2; }
[ -f "$BENCH" ] || { echo "no bench file at $BENCH: bash ../shared/corpus/bench-file.sh $BENCH" >&2; exit 2; }

# The input: the bench file repeated to SIZE_MB, and its .zst (pzstd's layout when pzstd is
# there, so that the reader decodes frames on its threads; else zstd's one frame).
BIG="$WORK/soak.pgn"
bench_bytes=$(wc -c < "$BENCH")
copies=$(( (SIZE_MB * 1048576 + bench_bytes - 1) / bench_bytes ))
i=0
while [ "$i" -lt "$copies" ]; do cat "$BENCH"; i=$((i + 1)); done > "$BIG"
if command -v pzstd >/dev/null; then
    nice -n 19 pzstd -q -f -3 -p 2 "$BIG" -o "$BIG.zst"
else
    nice -n 19 zstd -q -f -3 -T2 "$BIG" -o "$BIG.zst"
fi
echo "input: $copies x $BENCH = $(( $(wc -c < "$BIG") / 1048576 )) MiB plain, $(( $(wc -c < "$BIG.zst") / 1048576 )) MiB .zst" >&2

# soak LABEL ARGS...: runs pgnkit ARGS, sampling VmRSS every second; prints one table row.
soak() {
    label=$1; shift
    samples="$OUT/$label.rss"
    : > "$samples"
    start=$(date +%s)
    nice -n 19 "$PGNKIT" "$@" >/dev/null 2>"$WORK/stderr" &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
        rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
        [ -n "$rss" ] && echo "$(( $(date +%s) - start )) $rss" >> "$samples"
        sleep 1
    done
    status=0
    wait "$pid" || status=$?
    wall=$(( $(date +%s) - start ))
    # Peak, and the least-squares slope of the second half of the samples (kB/s -> MB/min).
    awk -v label="$label" -v wall="$wall" -v status="$status" '
        { t[NR] = $1; r[NR] = $2; if ($2 > peak) peak = $2 }
        END {
            from = int(NR / 2) + 1; n = 0
            for (i = from; i <= NR; i++) { n++; st += t[i]; sr += r[i]; stt += t[i] * t[i]; str += t[i] * r[i] }
            slope = (n > 1 && n * stt - st * st != 0) ? (n * str - st * sr) / (n * stt - st * st) : 0
            printf "| %s | %d | %d s | %.0f MB | %+.2f MB/min |\n", label, status, wall, peak / 1000, slope * 60 / 1000
        }' "$samples"
}

echo "| run | exit | wall | peak RSS | RSS slope (second half) |"
echo "|---|---|---|---|---|"
for input in "$BIG" "$BIG.zst"; do
    kind=plain; case $input in *.zst) kind=zst ;; esac
    soak "convert-$kind" convert "$input" -o "$WORK/games.parquet" --moves "$WORK/moves.parquet" --threads 2
    rm -f "$WORK/games.parquet" "$WORK/moves.parquet"
    soak "select-$kind" select "$input" --where 'WhiteElo >= 2000 and plies > 40' -o "$WORK/selected.pgn" --threads 2
    rm -f "$WORK/selected.pgn"
    soak "export-$kind" export "$input" -o "$WORK/export.pgn" --threads 2
    rm -f "$WORK/export.pgn"
done
