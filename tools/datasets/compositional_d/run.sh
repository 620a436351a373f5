#!/usr/bin/env bash
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
ADAMM="${ADAMM:-.venv/bin/adamm}"; PYTHON="${PYTHON:-python3}"; export HF_HUB_OFFLINE=1
DIR=tools/datasets/compositional_d; TMP="${OUT_DIR:-$(mktemp -d)}"; mkdir -p "$TMP"
answers=()
for name in noor dario ines; do
  user=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["user_id"])' "$DIR/history_$name.json")
  rm -f "$TMP/$name.duckdb"*
  "$ADAMM" ingest "$DIR/history_$name.json" --db "$TMP/$name.duckdb" --quiet > "$TMP/ingest_$name.txt"
  "$ADAMM" ask --questions "$DIR/questions_$name.jsonl" --db "$TMP/$name.duckdb" --user-id "$user" --json > "$TMP/answers_$name.jsonl"
  answers+=("$TMP/answers_$name.jsonl")
done
"$PYTHON" "$DIR/score.py" "${answers[@]}" --questions "$DIR/questions.jsonl" "$@"
