#!/usr/bin/python3
"""Predicted vs measured scatter from `placesim validate` results files (HDF5).

Usage: scripts/plot_validate.py results/validate/*.h5 -o results/validate/scatter.png

One point per task (dataset `validation_tasks`), coloured by results file, on log-log axes
with the y = x line: points above it are tasks the simulator was optimistic about. Each
run's makespan (dataset `validation`) is drawn as a larger marker, with a bar from the
fastest to the slowest of its recorded repeats (columns fastest_s, slowest_s): an error
inside that bar is within the machine's noise.
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
        names = runs.dtype.names
        spans = [(p, m, runs["fastest_s"][i] if "fastest_s" in names else m,
                  runs["slowest_s"][i] if "slowest_s" in names else m)
                 for i, (p, m) in enumerate(zip(runs["predicted_s"], runs["measured_s"])) if p > 0 and m > 0]
        if spans:
            xs, ys, fast, slow = zip(*spans)
            err = [[y - f for y, f in zip(ys, fast)], [s - y for y, s in zip(ys, slow)]]
            ax.errorbar(xs, ys, yerr=err, fmt="D", markersize=7, markeredgecolor="black", capsize=3,
                        label=f"{name} makespan (bar: fastest..slowest repeat)")
            lo, hi = min(lo, *xs, *fast), max(hi, *xs, *slow)
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
