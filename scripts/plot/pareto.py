"""Latency vs memory: every run with a simulated makespan, at the peak memory of its fullest
device (the figure that decides whether a plan fits), one colour per placer; per sweep point, a
Pareto front joins the runs that no other run at that point beats on both. Bounds and failed
runs have no makespan and are left out."""
import matplotlib.pyplot as plt

import results


def front(points):
    """The (memory, latency) points no other point is at least as good as on both and better on
    one, by increasing memory."""
    best = []
    for mem, lat in sorted(points):
        if not best or lat < best[-1][1]:
            best.append((mem, lat))
    return best


def plot(paths):
    sets = [results.read(p) for p in paths]
    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    colour = {p: f"C{k % 10}" for k, p in enumerate(results.placers_in_order(sets))}
    points = {}  # (file, point index) -> (label, [(memory GiB, makespan ms, placer)])
    for f, (s, name) in enumerate(zip(sets, results.names(sets))):
        for r in s["runs"]:
            if r["makespan_s"] and r["peak_mem"]:
                label = " ".join(f"{a}={v}" for a, v in r["point"].items())
                if len(sets) > 1:
                    label = f"{name} {label}"
                entry = points.setdefault((f, r["point_index"]), (label, []))
                entry[1].append((max(r["peak_mem"].values()) / 2**30, r["makespan_s"] * 1e3, r["placer"]))
    shown = set()
    for label, runs in points.values():
        for mem, lat, placer in runs:
            ax.scatter(mem, lat, s=24, alpha=0.85, color=colour[placer], label=None if placer in shown else placer)
            shown.add(placer)
        best = front([(m, t) for m, t, _ in runs])
        ax.step(*zip(*best), where="post", color="gray", linewidth=0.8, linestyle="--")
        if label:
            ax.annotate(label, best[0], textcoords="offset points", xytext=(4, -10), fontsize=7, color="gray")
    ax.set_xlabel("peak memory of the fullest device (GiB)")
    ax.set_ylabel("simulated makespan (ms)")
    ax.set_yscale("log")
    ax.set_title(", ".join(results.names(sets)) + ": latency vs memory (dashed: Pareto front per point)",
                 fontsize=10)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig
