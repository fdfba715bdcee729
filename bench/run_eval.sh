#!/usr/bin/env bash
# The eval on the two corpora of issue 3, with the stock LlamaIndex baseline:
#   1. the 38 bundled seed papers alone;
#   2. the seeds + the shared NeurIPS abstracts (8,434 distractors), read in place, never copied into the repo;
#   3. at 8.4k papers, both backends on the held-out questions about random papers (bench/heldout_eval.py): offline,
#      and the LLM backend against a scripted OpenAI-compatible server on loopback that answers only from the
#      sources it is sent (the share of answerable questions reaching the LLM with their paper among its sources);
#      then 500 random papers asked for by their own title.
# Stores persist (embedding the big corpus takes an hour or more on 2 CPUs), so a re-run only evaluates.
#
#   bench/run_eval.sh [SEED_STORE] [HARD_STORE]      (defaults: /tmp/paperchat-seed-store /tmp/hard-store)
set -euo pipefail
cd "$(dirname "$0")/.."
PAPERCHAT=${PAPERCHAT:-paperchat}
SEED_STORE=${1:-/tmp/paperchat-seed-store}
HARD_STORE=${2:-/tmp/hard-store}
CORPUS=${CORPUS:-../shared/corpora/neurips-abstracts.jsonl}
QUESTIONS=bench/questions.jsonl

echo "== seeds alone ($SEED_STORE)"
"$PAPERCHAT" --store-dir "$SEED_STORE" eval "$QUESTIONS" --corpus data --baseline --failures

if [[ -f "$CORPUS" ]]; then
  echo "== seeds + $(wc -l < "$CORPUS") distractors ($HARD_STORE)"
  "$PAPERCHAT" --store-dir "$HARD_STORE" eval "$QUESTIONS" --corpus data --corpus "$CORPUS" --baseline --failures
  PYTHON=$(dirname "$(command -v "$PAPERCHAT")")/python
  echo "== held-out questions, both backends ($HARD_STORE, split ${SPLIT:-test})"
  "$PYTHON" bench/heldout_eval.py "$HARD_STORE" --split "${SPLIT:-test}"
  echo "== 500 random papers by title ($HARD_STORE)"
  "$PYTHON" bench/heldout_eval.py "$HARD_STORE" --titles 500
else
  echo "shared corpus not found at $CORPUS: skipping the distractor run" >&2
fi
