#!/bin/bash
# Run the paraphrase bench against one checkout: `helix-chat eval` over the generated question
# files, then `helix-chat --replay` over the generated memory stream, one after the other.
#
# usage: run.sh CODE_DIR HELIX_HOME TAG OUT_DIR [GENERATED_DIR]
#   CODE_DIR       a source checkout of Helix (put first on PYTHONPATH; its engine is the one run)
#   HELIX_HOME     data home with a built store; the replay writes user memory into it, so use a
#                  scratch home (e.g. a copy whose stores/ is a symlink to the real one)
#   TAG            name of the run; outputs are OUT_DIR/TAG.*
#   OUT_DIR        where results, reports, logs and TAG.meta go (created if missing)
#   GENERATED_DIR  the files make_bench.py wrote (default: generated/ beside this script)
# Python: $PYTHON if set, else `python3` on PATH (use the venv Helix is installed in).
# Score afterwards with: score_bench.py --runs OUT_DIR [--generated GENERATED_DIR] TAG
set -u
if [ $# -lt 4 ]; then
  sed -n '5,12p' "$0" >&2
  exit 2
fi
CODE=$(cd "$1" && pwd) || exit 2
HOME_DIR=$2
TAG=$3
mkdir -p "$4" || exit 2
R=$(cd "$4" && pwd)
G=$(cd "${5:-$(dirname "$0")/generated}" && pwd) || exit 2
PY=${PYTHON:-python3}
for f in onehop multihop mechanism claims overview literature memory.replay; do
  [ -f "$G/paraphrase_$f.jsonl" ] || { echo "run.sh: $G/paraphrase_$f.jsonl missing (run make_bench.py)" >&2; exit 2; }
done
[ -d "$HOME_DIR" ] || { echo "run.sh: HELIX_HOME $HOME_DIR is not a directory" >&2; exit 2; }

export HELIX_HOME=$HOME_DIR PYTHONPATH=$CODE
cd "$CODE" || exit 2
{ echo "tag=$TAG code=$CODE head=$(git -C "$CODE" rev-parse HEAD) dirty_files=$(git -C "$CODE" status --porcelain | wc -l) start=$(date -u +%FT%TZ)";
  "$PY" -c 'import helix_tui.cli as c, engine as e; print("imported", c.__file__, e.__file__)'; } > "$R/$TAG.meta"
"$PY" -c 'from helix_tui.cli import main; main()' eval \
  $(for f in onehop multihop mechanism claims overview literature; do echo --bench "$G/paraphrase_$f.jsonl"; done) \
  --out "$R/$TAG.results.jsonl" --report-json "$R/$TAG.report.json" > "$R/$TAG.eval.txt" 2> "$R/$TAG.eval.err"
echo "eval rc=$? end=$(date -u +%FT%TZ)" >> "$R/$TAG.meta"
"$PY" -c 'from helix_tui.cli import main; main()' --replay "$G/paraphrase_memory.replay.jsonl" \
  --out "$R/$TAG.replay.results.jsonl" > "$R/$TAG.replay.txt" 2> "$R/$TAG.replay.err"
echo "replay rc=$? end=$(date -u +%FT%TZ)" >> "$R/$TAG.meta"
