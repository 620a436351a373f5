#!/usr/bin/env bash
# Run the compositional set offline: one `adamm ingest` + `adamm ask` per history
# (each into its own database), then score all answers together.
#
#   bash tools/datasets/compositional/run.sh [score.py options, e.g. --json]
#
# ADAMM   the adamm executable (default .venv/bin/adamm)
# PYTHON  the interpreter for score.py (default python3; stdlib only)
# OUT_DIR where databases, ingest reports and answers go (default: a new temp folder)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."          # repository root
ADAMM="${ADAMM:-.venv/bin/adamm}"
PYTHON="${PYTHON:-python3}"
export HF_HUB_OFFLINE=1
DIR=tools/datasets/compositional
TMP="${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/compositional.XXXXXX")}"
mkdir -p "$TMP"
echo "outputs in $TMP" >&2

answers=()
for name in maya tom priya; do
  user=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1], encoding="utf-8"))["user_id"])' \
         "$DIR/history_$name.json")
  rm -f "$TMP/$name.duckdb" "$TMP/$name.duckdb.wal"
  echo "== $name ($user): ingest" >&2
  "$ADAMM" ingest "$DIR/history_$name.json" --db "$TMP/$name.duckdb" --quiet > "$TMP/ingest_$name.txt"
  echo "== $name ($user): ask" >&2
  "$ADAMM" ask --questions "$DIR/questions_$name.jsonl" --db "$TMP/$name.duckdb" --user-id "$user" \
      --json > "$TMP/answers_$name.jsonl"
  answers+=("$TMP/answers_$name.jsonl")
done

"$PYTHON" "$DIR/score.py" "${answers[@]}" --questions "$DIR/questions.jsonl" "$@"
