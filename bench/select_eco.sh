#!/bin/sh
# Classification by pgnkit and by pgn-extract with the same table: the vendored Lichess TSVs
# (crates/select/openings/*.tsv) turned into an eco.pgn for pgn-extract's -e (one game per row:
# ECO and Opening tags, the row's moves), written under target/. Both classify the corpus's
# lichess-annotated/ folder joined; the games are paired by their other tags and the share whose
# ECO and Opening agree is printed, with the games that differ.
# Usage: bench/select_eco.sh [PGNKIT_BINARY]   (python3 and pgn-extract needed)
set -eu
PGNKIT=${1:-target/release/pgnkit}
PX=${PGN_EXTRACT:-$(command -v pgn-extract || echo /usr/games/pgn-extract)}
CORPUS=${PGNKIT_CORPUS:-../shared/corpus}
WORK=target/select-eco
mkdir -p "$WORK"
for f in crates/select/openings/*.tsv; do tail -n +2 "$f"; done | awk -F '\t' '
    NF == 3 { gsub(/\\/, "\\\\", $2); gsub(/"/, "\\\"", $2);
              printf "[ECO \"%s\"]\n[Opening \"%s\"]\n\n%s *\n\n", $1, $2, $3 }' > "$WORK/eco-lichess.pgn"
cat "$CORPUS"/lichess-annotated/*.pgn > "$WORK/in.pgn"
"$PGNKIT" classify "$WORK/in.pgn" -o "$WORK/pgnkit.pgn" 2>/dev/null
"$PX" -s -e"$WORK/eco-lichess.pgn" -o "$WORK/pgn-extract.pgn" "$WORK/in.pgn" 2>/dev/null
python3 - "$WORK/pgnkit.pgn" "$WORK/pgn-extract.pgn" <<'PY'
import re, sys
from collections import defaultdict

def games(path):
    out, cur = [], None
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r'\[(\w+) "(.*)"\]\s*$', line)
        if m:
            cur = cur or {}
            cur.setdefault(m.group(1), m.group(2))
        elif cur and not line.strip():
            out.append(cur)
            cur = None
    return out

SET = ("ECO", "Opening", "Variation", "SubVariation")
def key(g):
    return tuple(sorted((k, v) for k, v in g.items() if k not in SET))

ours, theirs = defaultdict(list), defaultdict(list)
for g in games(sys.argv[1]):
    ours[key(g)].append(g)
for g in games(sys.argv[2]):
    theirs[key(g)].append(g)
same, differ, unpaired = 0, [], 0
for k, gs in ours.items():
    other = theirs.get(k, [])
    if len(other) != len(gs):
        unpaired += len(gs)
        continue
    for a, b in zip(gs, other):
        pa, pb = (a.get("ECO"), a.get("Opening")), (b.get("ECO"), b.get("Opening"))
        if pa == pb:
            same += 1
        else:
            differ.append(f"  {a.get('Site')}: pgnkit {pa}, pgn-extract {pb}")
n = same + len(differ)
print(f"{n} games paired ({unpaired} not paired: same tags, another count), "
      f"{same} agree: {100 * same / n:.2f}%")
print("\n".join(differ))
PY
