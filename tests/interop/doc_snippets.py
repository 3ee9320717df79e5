#!/usr/bin/env python3
"""Checks that every Python block the docs quote from a file is that file, byte for byte.

A quoted block in docs/*.md is a line `<!-- file: PATH -->` (PATH from the repository root)
followed by a fenced code block; CI runs the file (tests/interop/run.sh), so the doc shows code
that runs. Exits 1 naming the doc and the file when they differ.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
QUOTE = re.compile(r"<!-- file: (\S+) -->\n```[a-z]*\n(.*?)```\n", re.S)


def main():
    failures, checked = [], 0
    for doc in sorted((ROOT / "docs").glob("*.md")):
        for path, block in QUOTE.findall(doc.read_text()):
            checked += 1
            source = ROOT / path
            if not source.exists():
                failures.append(f"{doc.name}: quotes {path}, which does not exist")
            elif source.read_text() != block:
                failures.append(f"{doc.name}: the block quoting {path} differs from the file")
    for f in failures:
        print("doc snippets: " + f)
    if failures:
        sys.exit(1)
    print(f"doc snippets: {checked} quoted files match")


if __name__ == "__main__":
    main()
