"""Speed-up bars: per sweep axis, one group of bars per axis value, one bar per placer, each the
geometric mean of the placer's speed-ups over the baseline at the points with that value (what
`placesim compare` pivots per axis). Bounds and failed runs have no makespan and so no bar."""
import math

import matplotlib.pyplot as plt

import results


def speedups(sets, baseline):
    """(point, placer, speed-up) for every run with a makespan at a point where the baseline has
    one; with several files, each point gains a leading "scenario" axis."""
    out = []
    for s, name in zip(sets, results.names(sets)):
        base = {r["point_index"]: r["makespan_s"] for r in s["runs"] if r["placer"] == baseline}
        for r in s["runs"]:
            b, m = base.get(r["point_index"]), r["makespan_s"]
            if b and m:
                point = dict(r["point"])
                if len(sets) > 1:
                    point = {"scenario": name, **point}
                out.append((point, r["placer"], b / m))
    return out


def value_at(point, axis):
    return point.get(axis, "all points") if axis else "all points"


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def plot(paths, baseline):
    sets = [results.read(p) for p in paths]
    data = speedups(sets, baseline)
    placers = [p for p in results.placers_in_order(sets) if any(pl == p for _, pl, _ in data)]
    axes = []
    for point, _, _ in data:
        axes += [a for a in point if a not in axes]
    # An axis with one value says nothing a bar over all points would not; with none, one panel.
    panels = [a for a in axes if len({p.get(a) for p, _, _ in data if a in p}) > 1] or [None]
    fig, subplots = plt.subplots(1, len(panels), figsize=(max(6, 4.5 * len(panels)), 4.2), squeeze=False)
    width = 0.8 / max(1, len(placers))
    for ax, axis in zip(subplots[0], panels):
        values = []
        for p, _, _ in data:
            v = value_at(p, axis)
            if v not in values:
                values.append(v)
        for k, placer in enumerate(placers):
            heights = []
            for v in values:
                xs = [x for p, pl, x in data if pl == placer and value_at(p, axis) == v]
                heights.append(geomean(xs) if xs else float("nan"))  # NaN: no bar
            bars = ax.bar([i + (k - (len(placers) - 1) / 2) * width for i in range(len(values))], heights, width,
                          label=placer)
            ax.bar_label(bars, labels=["" if math.isnan(h) else f"{h:.2f}" for h in heights], fontsize=6)
        ax.axhline(1.0, color="gray", linewidth=0.8)
        ax.set_xticks(range(len(values)))
        long = max(len(v) for v in values) > 10
        ax.set_xticklabels(values, rotation=20 if long else 0, ha="right" if long else "center", fontsize=8)
        ax.set_xlabel(axis or "")
        ax.set_ylabel(f"geomean speed-up over {baseline}")
    subplots[0][0].legend(fontsize=7)
    fig.suptitle(", ".join(results.names(sets)) + ": speed-up per placer (simulated makespan)", fontsize=10)
    fig.tight_layout()
    return fig
