#!/usr/bin/env bash
# Ingest each history of set B into its own temporary DuckDB file, ask its
# questions offline, and score all the answers. Run from anywhere; it works
# from the repository root. ADAMM overrides the command (default .venv/bin/adamm).
set -euo pipefail
cd "$(dirname "$0")/../../.."
ADAMM="${ADAMM:-.venv/bin/adamm}"
PYTHON="${PYTHON:-.venv/bin/python}"
export HF_HUB_OFFLINE=1
DIR=tools/datasets/compositional_b
TMP="$(mktemp -d "${TMPDIR:-/tmp}/adamm_set_b.XXXXXX")"
echo "work dir: $TMP"
answers=()
for pair in nurse:aoife_wardnurse gardener:walter_allotment student:priya_pharm; do
  name="${pair%%:*}"
  user="${pair#*:}"
  db="$TMP/$name.duckdb"
  echo "== $name (user $user)"
  "$ADAMM" ingest "$DIR/history_$name.json" --db "$db" --user-id "$user" --quiet
  "$ADAMM" ask --questions "$DIR/questions_$name.jsonl" --db "$db" --json --user-id "$user" \
    > "$TMP/answers_$name.jsonl"
  answers+=("$TMP/answers_$name.jsonl")
done
"$PYTHON" "$DIR/score.py" "${answers[@]}" --questions "$DIR/questions.jsonl"
