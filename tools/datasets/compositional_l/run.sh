#!/usr/bin/env bash
# Ingest each history of compositional set L, ask its questions, and score the answers.
# Extra arguments go to score.py (--json, --per-question, --by-family).
# OUT_DIR=... keeps the databases, ingest reports and answers there (default: a fresh temporary folder).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
ADAMM="${ADAMM:-.venv/bin/adamm}"; PYTHON="${PYTHON:-python3}"; export HF_HUB_OFFLINE=1
DIR=tools/datasets/compositional_l; TMP="${OUT_DIR:-$(mktemp -d)}"; mkdir -p "$TMP"
answers=()
for name in rower reseller fosterer; do
  user=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["user_id"])' "$DIR/history_$name.json")
  rm -rf "$TMP/$name.duckdb"*
  "$ADAMM" ingest "$DIR/history_$name.json" --db "$TMP/$name.duckdb" --quiet > "$TMP/ingest_$name.txt"
  "$ADAMM" ask --questions "$DIR/questions_$name.jsonl" --db "$TMP/$name.duckdb" --user-id "$user" --json > "$TMP/answers_$name.jsonl"
  answers+=("$TMP/answers_$name.jsonl")
done
echo "answers and ingest reports in $TMP" >&2
"$PYTHON" "$DIR/score.py" "${answers[@]}" --questions "$DIR/questions.jsonl" "$@"
