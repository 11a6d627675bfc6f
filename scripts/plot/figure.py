"""Writing a figure: whole or not at all, in the format its file name ends in."""
import os

import matplotlib.pyplot as plt


def save(fig, path):
    ext = os.path.splitext(path)[1].lower().lstrip(".")
    if ext not in ("png", "svg"):
        raise SystemExit(f"placesim plot: {path}: expected an output file ending in .png or .svg")
    parent = os.path.dirname(path)
    if parent:
        os.makedirs(parent, exist_ok=True)
    tmp = f"{path}.tmp-{os.getpid()}"
    try:
        # metadata without a date: the same inputs give the same SVG bytes.
        fig.savefig(tmp, format=ext, dpi=110, metadata={"Date": None} if ext == "svg" else None)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
        plt.close(fig)
