#!/usr/bin/env python3
"""scripts/import_graph.py -- the module graph of src/ and whether it has a
cycle.  Run after a build (`make`); exits 1 on a cycle.

    python3 scripts/import_graph.py

A module is a .c file and the header of the same name beside it
(src/probe/bloom_cache.c + src/probe/bloom_cache.h); a .c without a header of its own
is a module by itself.  A sectioned header names the files that own its
sections ("(owner: bloom_x.c)" in its section comments): those files, the
header and its _internal.h are one module, named for the header.  Module A depends on
module B when

  * a file of A #includes B's header (local includes only),
  * A's object file uses a symbol B's object file defines (nm), or
  * A's header calls, in an inline function or macro, a function B's object
    file defines (what a linker graph cannot see: a circle through a header).

A cycle means two modules cannot be read, tested or changed apart; the
graph must be a DAG.  Also printed: the branches on a filter kind
(`== BLOOM_KIND_…`, `case BLOOM_KIND_…`) outside the kind table, a measure
of how often code reaches the kinds by name instead of through their
operations.
"""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'src')


def sectioned_owners():
    """file -> module for the files a sectioned header names as owners"""
    owners = {}
    for h in glob.glob(os.path.join(ROOT, '**', '*.h'), recursive=True):
        mod = os.path.splitext(os.path.relpath(h, ROOT))[0]
        names = re.findall(r'\(owner: ([A-Za-z0-9_]+\.c)', open(h).read())
        if not names:
            continue
        owners[os.path.normpath(os.path.splitext(h)[0] + '_internal.h')] = mod
        for n in names:
            owners[os.path.normpath(os.path.join(os.path.dirname(h), n))] = mod
    return owners


OWNERS = sectioned_owners()


def module_of(path):
    path = os.path.normpath(path)
    if path in OWNERS:
        return OWNERS[path]
    rel = os.path.relpath(path, ROOT)
    return os.path.splitext(rel)[0]


def strip_comments(text):
    return re.sub(r'/\*.*?\*/|//[^\n]*', '', text, flags=re.S)


files = sorted(glob.glob(os.path.join(ROOT, '**', '*.[ch]'), recursive=True))
modules = sorted({module_of(f) for f in files})
deps = {m: set() for m in modules}
why = {}


def edge(a, b, reason):
    if a != b and b in deps:
        deps[a].add(b)
        why.setdefault((a, b), reason)


# include edges
for f in files:
    for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', open(f).read(), re.M):
        target = os.path.normpath(os.path.join(os.path.dirname(f), inc))
        if not os.path.exists(target):
            target = os.path.normpath(os.path.join(ROOT, inc))
        if os.path.exists(target):
            edge(module_of(f), module_of(target), 'includes ' + os.path.relpath(target, ROOT))

# symbol edges
defs, uses = {}, {}
for c in (f for f in files if f.endswith('.c')):
    obj = c[:-2] + '.o'
    if not os.path.exists(obj):
        sys.exit(f'{obj} is missing: build first (make)')
    for line in subprocess.run(['nm', obj], capture_output=True, text=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'TDBR':
            defs[parts[2]] = module_of(c)
        elif len(parts) == 2 and parts[0] == 'U':
            uses.setdefault(module_of(c), set()).add(parts[1])
for m, used in uses.items():
    for sym in used:
        if sym in defs:
            edge(m, defs[sym], 'calls ' + sym)

# calls from headers' inline code
for h in (f for f in files if f.endswith('.h')):
    code = re.sub(r'^\s*extern\b[^;]*;', '', strip_comments(open(h).read()), flags=re.M)
    for ident in set(re.findall(r'\b([A-Za-z_]\w*)\s*\(', code)):
        if ident in defs:
            edge(module_of(h), defs[ident], 'header calls ' + ident)


def reach(start):
    seen, todo = set(), [start]
    while todo:
        for nxt in deps[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


for m in modules:
    print(f'{m} -> {", ".join(sorted(deps[m])) or "(nothing)"}')
cyclic = [m for m in modules if m in reach(m)]
for m in cyclic:
    for d in sorted(deps[m]):
        if m in reach(d):
            print(f'  cycle edge: {m} -> {d} ({why[(m, d)]})')
pairs = sum(len(reach(m)) for m in modules)
print(f'modules: {len(modules)}; dependent pairs: {pairs} of {len(modules) * (len(modules) - 1)}')

branches = 0
for c in (f for f in files if f.endswith('.c')):
    n = len(re.findall(r'[=!]=\s*BLOOM_KIND_\w+|case\s+BLOOM_KIND_\w+', strip_comments(open(c).read())))
    if n:
        print(f'kind branches: {os.path.relpath(c, ROOT)}: {n}')
    branches += n
print(f'kind branches in all: {branches}')
print('cycles: ' + (', '.join(cyclic) if cyclic else 'none'))
print(f'SUITE import-graph: {0 if cyclic else 1} passed, {1 if cyclic else 0} failed')
sys.exit(1 if cyclic else 0)
