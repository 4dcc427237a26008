#!/bin/sh
# The new-user walkthrough of docs/tui.md ("A first session") shows `render`
# output: every snippet introduced by "(`render ... --view V --size WxH`)" or
# "(`--view V --size WxH`)" must be what render prints now, line for line (a run
# of consecutive lines of its output, trailing blanks aside), so the walkthrough
# stays true to the UI (issue 14).
NAME=walkthrough
. tests/support/render.sh
command -v python3 >/dev/null || { echo "skip walkthrough: python3 needed"; exit 0; }
DOC=$(dirname "$0")/../../docs/tui.md
python3 - "$DOC" "$BIN" "$TRACES/casita-late-sender-barrier-4p" <<'PY'
import re, subprocess, sys
doc, binary, trace = sys.argv[1:4]
text = open(doc, encoding="utf-8").read()
sec = text[text.index("## A first session"):]
sec = sec[:sec.index("\n## ", 1)]
n = 0
for m in re.finditer(r"\(`(?:render \.\.\. )?--view (\w+) --size (\d+x\d+)`\):\n\n```\n(.*?)```", sec, re.S):
    view, size, block = m.group(1), m.group(2), m.group(3)
    want = [l.rstrip() for l in block.rstrip("\n").split("\n")]
    out = subprocess.run([binary, "render", trace, "--view", view, "--size", size], capture_output=True, text=True).stdout
    got = [l.rstrip() for l in out.split("\n")]
    ok = any(got[i:i + len(want)] == want for i in range(len(got) - len(want) + 1))
    n += 1
    print(("ok" if ok else "not ok") + f" walkthrough-{view}-{size}")
    if not ok:
        print("\n".join("    " + l for l in got[:len(want) + 3]))
print("ok walkthrough-snippets" if n >= 2 else f"not ok walkthrough-snippets: {n} found")
PY
