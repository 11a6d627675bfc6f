"""Speed-up bars from what `placesim compare --json` prints (`placesim plot speedup` makes it from
the results files): per sweep axis with more than one value, one group of bars per value, one
bar per placer, each the geometric mean of the placer's speed-ups over the baseline at the
points with that value (compare's per-axis pivot); with no such axis, one group: every point.
Placers without speed-ups (bounds, failures) have no bar."""
import json
import math

import matplotlib.pyplot as plt


def groups(doc):
    """[(axis or None, [(value, {placer: geomean or None})])]: compare's pivots, or its geomeans."""
    pivots = [(axis, [(r["value"], r["geomean_speedup"]) for r in rows])
              for axis, rows in doc["summary"]["pivot"].items() if len(rows) > 1]
    every = {p: s["speedup"]["geomean"] for p, s in doc["summary"]["placers"].items()}
    return pivots or [(None, [("every point", every)])]


def plot(path):
    with open(path) as f:
        doc = json.load(f)
    panels = groups(doc)
    placers = [p for p in doc["summary"]["placers"]
               if any(g.get(p) is not None for _, rows in panels for _, g in rows)]
    # The legend goes below the bars, which it would hide inside them (placer labels with their
    # options are long): two placers a row, each row a fixed height added to the figure.
    rows = math.ceil(len(placers) / 2)
    legend_in = 0.1 + 0.15 * rows
    fig, subplots = plt.subplots(1, len(panels), figsize=(max(6, 4.5 * len(panels)), 4.2 + legend_in),
                                 squeeze=False)
    width = 0.8 / max(1, len(placers))
    for ax, (axis, rows) in zip(subplots[0], panels):
        for k, placer in enumerate(placers):
            heights = [math.nan if g.get(placer) is None else g[placer] for _, g in rows]  # NaN: no bar
            bars = ax.bar([i + (k - (len(placers) - 1) / 2) * width for i in range(len(rows))], heights, width,
                          label=placer)
            ax.bar_label(bars, labels=["" if math.isnan(h) else f"{h:.2f}" for h in heights], fontsize=6)
        ax.axhline(1.0, color="gray", linewidth=0.8)
        values = [v for v, _ in rows]
        long = max(len(v) for v in values) > 10
        ax.set_xticks(range(len(values)))
        ax.set_xticklabels(values, rotation=20 if long else 0, ha="right" if long else "center", fontsize=8)
        ax.set_xlabel(axis or "")
        ax.set_ylabel(f"geomean speed-up over {doc['baseline']}")
    fig.legend(*subplots[0][0].get_legend_handles_labels(), loc="lower center", ncol=2, fontsize=7, frameon=False)
    fig.suptitle(f"{doc['scenario']}: speed-up per placer (simulated makespan)", fontsize=10)
    fig.tight_layout(rect=(0, legend_in / fig.get_figheight(), 1, 1))
    return fig
