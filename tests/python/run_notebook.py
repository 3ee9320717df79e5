"""Executes a notebook with nbclient in a fresh kernel (the venv's own Python) and fails on the
first cell that raises. Usage: run_notebook.py NOTEBOOK [--write] (--write saves the outputs
into the notebook, for the copy kept in docs/)."""

import pathlib
import sys

import nbformat
from nbclient import NotebookClient


def main() -> None:
    path = pathlib.Path(sys.argv[1])
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    if "--write" in sys.argv[2:]:
        nbformat.write(notebook, path)
    cells = sum(1 for c in notebook.cells if c.cell_type == "code")
    print(f"{path.name}: {cells} code cells ran")


if __name__ == "__main__":
    main()
