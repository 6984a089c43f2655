#!/usr/bin/env python3
"""scripts/check_docs.py -- no run logs in the user's manual or the code.

The README, docs/ and the comments of src/ say how things work and why; a
run's date, its clock time or the commit it measured go stale the day they
are written and belong in bench/results/ and CHANGELOG.md.  This check fails
on any of them in README.md, docs/*.md and src/**/*.{c,h}:

  - a date of this century's runs (2010-01-01 .. 2099-12-31; the epochs
    1970-01-01 and 2000-01-01 that formats name are older),
  - a clock time given as UTC ("14:15 UTC", "14:15-14:20 UTC") or as a run
    ("at 15:45", "the 14:15 run"),
  - a commit id: 7 to 12 hex digits with a letter and a digit, standing
    alone (not a hex literal such as \\x01 or 0x1f, not part of a word).

Prints each finding as FILE:LINE: what, and the usual SUITE line; exits 1 on
a finding.  Run from anywhere: python3 scripts/check_docs.py
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DATE = re.compile(r'\b20[1-9][0-9]-[01][0-9]-[0-3][0-9]\b')
CLOCK = r'[0-2]?[0-9]:[0-5][0-9]'
UTC_TIME = re.compile(r'\b' + CLOCK + r'(\s*[-\u2013]\s*' + CLOCK + r')?\s*UTC\b')
RUN_TIME = re.compile(r'\b(at|until|from|the|of)\s+' + CLOCK + r'\b(?!:)')
COMMIT = re.compile(r'(?<![0-9A-Za-z_\\\'"=%&#/.-])(?<!0x)([0-9a-f]{7,12})(?![0-9A-Za-z_\'"])')


def files():
    yield 'README.md'
    for d, _, names in sorted(os.walk(os.path.join(ROOT, 'docs'))):
        for n in sorted(names):
            if n.endswith('.md'):
                yield os.path.relpath(os.path.join(d, n), ROOT)
    for d, _, names in sorted(os.walk(os.path.join(ROOT, 'src'))):
        for n in sorted(names):
            if n.endswith(('.c', '.h')):
                yield os.path.relpath(os.path.join(d, n), ROOT)


def findings(path):
    with open(os.path.join(ROOT, path), encoding='utf-8') as f:
        for no, line in enumerate(f, 1):
            for what, rx in (('date', DATE), ('UTC time', UTC_TIME), ('time of a run', RUN_TIME)):
                m = rx.search(line)
                if m:
                    yield no, what, m.group(0)
            for m in COMMIT.finditer(line):
                tok = m.group(1)
                if re.search('[a-f]', tok) and re.search('[0-9]', tok):
                    yield no, 'commit id', tok


def main():
    checked = bad = 0
    for path in files():
        checked += 1
        for no, what, text in findings(path):
            bad += 1
            print('%s:%d: %s %r' % (path, no, what, text))
    print('checked %d files: %d run-log findings' % (checked, bad))
    print('SUITE docs-no-run-logs: %d passed, %d failed' % (1 if bad == 0 else 0, 1 if bad else 0))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
