#!/usr/bin/env python3
"""scripts/import_graph.py -- which C file of src/ calls which (from the
symbols each object file defines and uses), and whether the calls form a
cycle.  Run after a build (`make`); exits 1 if there is a cycle.

    python3 scripts/import_graph.py
"""
import glob
import os
import subprocess
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'src')
sources = {os.path.basename(c)[:-2] for c in glob.glob(os.path.join(root, '*.c'))}
defs, uses = {}, {}
for name in sorted(sources):
    obj = os.path.join(root, name + '.o')
    if not os.path.exists(obj):
        sys.exit(f'{obj} is missing: build first (make)')
    for line in subprocess.run(['nm', obj], capture_output=True, text=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'TDBR':
            defs[parts[2]] = name
        elif len(parts) == 2 and parts[0] == 'U':
            uses.setdefault(name, set()).add(parts[1])
graph = {n: sorted({defs[u] for u in uses.get(n, ()) if u in defs and defs[u] != n})
         for n in sorted(sources)}


def reach(start):
    seen, todo = set(), [start]
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


for n in graph:
    print(f'{n}.c -> {", ".join(x + ".c" for x in graph[n]) or "(nothing)"}')
cyclic = [n for n in graph if n in reach(n)]
print('cycles: ' + (', '.join(cyclic) if cyclic else 'none'))
sys.exit(1 if cyclic else 0)
