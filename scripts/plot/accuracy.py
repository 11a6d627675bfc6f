"""Predicted against actual, on log-log axes with the y = x line (points above it: the
prediction was optimistic):

  predicted  the placers' own predictions against the simulated makespans of their plans, one
             marker per run, coloured by placer (results files of `placesim run`; bounds have no
             simulated makespan and are left out);
  measured   the simulator's predictions against real runs (files of `placesim validate`): one
             point per task (table `validation_tasks`), coloured by file, and each run's makespan
             (table `validation`) as a larger marker with a bar from the fastest to the slowest
             of its recorded repeats: an error inside that bar is within the machine's noise.
"""
import h5py
import matplotlib.pyplot as plt

import results


class Range:
    """The smallest and largest value drawn, for the y = x line."""

    def __init__(self):
        self.lo, self.hi = float("inf"), 0.0

    def add(self, *values):
        self.lo, self.hi = min(self.lo, *values), max(self.hi, *values)


def finish(fig, ax, span, xlabel, ylabel, title):
    if span.hi > 0:
        ax.plot([span.lo, span.hi], [span.lo, span.hi], color="gray", linewidth=1, label=f"{ylabel} = {xlabel}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(f"{xlabel} (s)")
    ax.set_ylabel(f"{ylabel} (s)")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def plot_predicted(paths):
    sets = [results.read(p) for p in paths]
    fig, ax = plt.subplots(figsize=(6, 6))
    span = Range()
    for placer in results.placers_in_order(sets):
        pts = [(r["predicted_s"], r["makespan_s"]) for s in sets for r in s["runs"]
               if r["placer"] == placer and r["predicted_s"] and r["makespan_s"]]
        if pts:
            xs, ys = zip(*pts)
            ax.scatter(xs, ys, s=22, alpha=0.8, label=placer)
            span.add(*xs, *ys)
    title = ", ".join(results.names(sets)) + ": the placers' predictions vs the simulation"
    return finish(fig, ax, span, "predicted", "simulated", title)


def plot_measured(paths):
    fig, ax = plt.subplots(figsize=(6, 6))
    span = Range()
    for path in paths:
        with h5py.File(path, "r") as f:
            name = results.text(f.attrs["scenario"])
            tasks = f["validation_tasks"][()]
            runs = f["validation"][()]
        pts = [(p, m) for p, m in zip(tasks["predicted_s"], tasks["measured_s"]) if p > 0 and m > 0]
        if pts:
            xs, ys = zip(*pts)
            ax.scatter(xs, ys, s=8, alpha=0.5, label=f"{name} tasks")
            span.add(*xs, *ys)
        names = runs.dtype.names
        spans = [(p, m, runs["fastest_s"][i] if "fastest_s" in names else m,
                  runs["slowest_s"][i] if "slowest_s" in names else m)
                 for i, (p, m) in enumerate(zip(runs["predicted_s"], runs["measured_s"])) if p > 0 and m > 0]
        if spans:
            xs, ys, fast, slow = zip(*spans)
            err = [[y - f for y, f in zip(ys, fast)], [s - y for y, s in zip(ys, slow)]]
            ax.errorbar(xs, ys, yerr=err, fmt="D", markersize=7, markeredgecolor="black", capsize=3,
                        label=f"{name} makespan (bar: fastest..slowest repeat)")
            span.add(*xs, *fast, *slow)
    return finish(fig, ax, span, "predicted", "measured", "placesim validate: predicted vs measured")
