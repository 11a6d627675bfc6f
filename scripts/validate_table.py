#!/usr/bin/python3
"""Markdown tables from `placesim validate` results files (HDF5), for results/validate/README.md.

Usage: scripts/validate_table.py results/validate/validate-*-cpu.h5

First, per file and over all files: the runs, and the mean and nearest-rank p95 of |makespan
model_error| (model_error = (predicted - measured) / measured). Then one row per run: predicted
and measured (median-repeat) makespan, the model_error, the fastest and slowest recorded repeat
and their spread ((slowest - fastest) / measured), and the per-task mean and p95 of |model_error|.
"""
import argparse
import json
import math

import h5py


def text(v):
    return v.decode() if isinstance(v, bytes) else v


def p95(values):
    """Nearest rank: the ceil(0.95 n)-th smallest."""
    s = sorted(values)
    return s[max(0, math.ceil(0.95 * len(s)) - 1)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", help="validate results files")
    args = ap.parse_args()

    rows, summary = [], []
    every = []
    for path in args.files:
        with h5py.File(path, "r") as f:
            name = text(f.attrs["scenario"])
            runs = f["validation"][()]
        errs = []
        for r in runs:
            if text(r["status"]) != "ok":
                continue
            point = ", ".join(f"{k}={v}" for k, v in json.loads(text(r["point"])).items()) or "-"
            # model_error = (predicted - measured) / measured; files written before it have
            # `error`, the opposite sign.
            model_error = r["model_error"] if "model_error" in runs.dtype.names else -r["error"]
            errs.append(abs(model_error))
            rows.append(f"| {name} | {point} | {r['predicted_s'] * 1e3:.2f} | {r['measured_s'] * 1e3:.2f} | "
                        f"{100 * model_error:+.1f}% | {r['fastest_s'] * 1e3:.2f} | {r['slowest_s'] * 1e3:.2f} | "
                        f"{100 * r['spread']:.1f}% | {100 * r['task_mean']:.0f}% | {100 * r['task_p95']:.0f}% |")
        every += errs
        summary.append(f"| {name} | {len(errs)} | {100 * sum(errs) / len(errs):.1f}% | {100 * p95(errs):.1f}% |")
    summary.append(f"| all | {len(every)} | {100 * sum(every) / len(every):.1f}% | {100 * p95(every):.1f}% |")
    print("| scenario | runs | mean abs. model_error | p95 |\n|---|---|---|---|")
    print("\n".join(summary))
    print()
    print("| scenario | point | predicted ms | measured ms | model_error | fastest ms | slowest ms | spread "
          "| task mean | task p95 |\n|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
