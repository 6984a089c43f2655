#!/usr/bin/env python3
"""scripts/check_readme_sql.py -- every ```sql block of README.md must appear,
verbatim, in sql/readme_examples.sql (the regression test that runs them on
meaningful data and asserts the claims around them), in another regression
test of the feature (sql/*.sql), or, for recipes that need several servers,
in a TAP test under test/t (test/citus for Citus) that runs them.  Prints one line per
block and a SUITE line; exits 1 when README and the test drift apart."""
import glob
import os
import re
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
readme = open(os.path.join(root, 'README.md'), encoding='utf-8').read()
test = open(os.path.join(root, 'sql', 'readme_examples.sql'), encoding='utf-8').read()
tap = {os.path.relpath(p, root): open(p, encoding='utf-8').read()
       for p in sorted(glob.glob(os.path.join(root, 'test', 't', '*.pl')) +
                       glob.glob(os.path.join(root, 'test', 'citus', '*.pl')) +
                       glob.glob(os.path.join(root, 'sql', '*.sql')))}
blocks = re.findall(r'```sql\n(.*?)```', readme, re.S)
ok = bad = 0
for i, block in enumerate(blocks, 1):
    if block in test:
        ok += 1
        print(f'ok    README sql block {i} is in sql/readme_examples.sql')
    elif any(block in text for text in tap.values()):
        ok += 1
        where = next(p for p, text in tap.items() if block in text)
        print(f'ok    README sql block {i} is in {where}')
    else:
        bad += 1
        print(f'FAIL  README sql block {i} (starts {block.splitlines()[0]!r}) is not in sql/readme_examples.sql nor in another test')
if not blocks:
    bad += 1
    print('FAIL  no sql blocks found in README.md')
print(f'SUITE readme-sql: {ok} passed, {bad} failed')
sys.exit(1 if bad else 0)
