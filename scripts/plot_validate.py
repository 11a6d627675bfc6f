#!/usr/bin/python3
"""Predicted vs measured scatter from `placesim validate` results files (HDF5).

Usage: scripts/plot_validate.py results/validate/*.h5 -o results/validate/scatter.png

One point per task (dataset `validation_tasks`), coloured by results file, on log-log axes
with the y = x line: points above it are tasks the simulator was optimistic about. Each
run's makespan (dataset `validation`) is drawn as a larger marker.
"""
import argparse

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", help="validate results files")
    ap.add_argument("-o", "--output", required=True, help="image to write (.png, .pdf, .svg)")
    args = ap.parse_args()

    fig, ax = plt.subplots(figsize=(6, 6))
    lo, hi = float("inf"), 0.0
    for path in args.files:
        with h5py.File(path, "r") as f:
            name = f.attrs["scenario"]
            name = name.decode() if isinstance(name, bytes) else name
            tasks = f["validation_tasks"][()]
            runs = f["validation"][()]
        pts = [(p, m) for p, m in zip(tasks["predicted_s"], tasks["measured_s"]) if p > 0 and m > 0]
        if pts:
            xs, ys = zip(*pts)
            ax.scatter(xs, ys, s=8, alpha=0.5, label=f"{name} tasks")
            lo, hi = min(lo, *xs, *ys), max(hi, *xs, *ys)
        spans = [(p, m) for p, m in zip(runs["predicted_s"], runs["measured_s"]) if p > 0 and m > 0]
        if spans:
            xs, ys = zip(*spans)
            ax.scatter(xs, ys, s=60, marker="D", edgecolors="black", label=f"{name} makespan")
            lo, hi = min(lo, *xs, *ys), max(hi, *xs, *ys)
    if hi > 0:
        ax.plot([lo, hi], [lo, hi], color="gray", linewidth=1, label="measured = predicted")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("predicted (s)")
    ax.set_ylabel("measured (s)")
    ax.set_title("placesim validate: predicted vs measured")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)


if __name__ == "__main__":
    main()
