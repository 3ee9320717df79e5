"""Executes a notebook with nbclient in a fresh kernel (the venv's own Python) and fails on the
first cell that raises, and on any cell whose plain-text output differs from the one stored in
the notebook (what a reader sees on the page must be what the code gives). Usage:
run_notebook.py NOTEBOOK [--write] (--write saves the new outputs into the notebook instead, for
the copy kept in docs/)."""

import pathlib
import sys

import nbformat
from nbclient import NotebookClient


def plain_text(cell) -> list:
    """The cell's plain-text outputs (results and printed text), in order."""
    texts = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            texts.append("".join(output.get("text", "")))
        elif "data" in output and "text/plain" in output["data"]:
            texts.append("".join(output["data"]["text/plain"]))
    return texts


def main() -> None:
    path = pathlib.Path(sys.argv[1])
    notebook = nbformat.read(path, as_version=4)
    stored = [plain_text(c) for c in notebook.cells if c.cell_type == "code"]
    NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    if "--write" in sys.argv[2:]:
        nbformat.write(notebook, path)
    else:
        ran = [plain_text(c) for c in notebook.cells if c.cell_type == "code"]
        stale = [(i + 1, old, new) for i, (old, new) in enumerate(zip(stored, ran)) if old != new]
        for number, old, new in stale:
            print(f"{path.name}: code cell {number} stored {old!r}, gives {new!r}")
        if stale:
            sys.exit(f"{path.name}: {len(stale)} stored outputs are stale (run with --write)")
    cells = sum(1 for c in notebook.cells if c.cell_type == "code")
    print(f"{path.name}: {cells} code cells ran")


if __name__ == "__main__":
    main()
