"""Served request streams (`placesim serve -o FILE`): latency against load, and the time to first
token's distribution. Both read the `serving` table (docs/formats.md, "Results files")."""
import math

import h5py
import matplotlib.pyplot as plt

import results


def read(path):
    """The file's runs (results.read), each served one with its `serving` row as a dict."""
    s = results.read(path)
    with h5py.File(path, "r") as f:
        rows = f["serving"][()] if "serving" in f else []
    for row in rows:
        s["runs"][int(row["run"])]["serving"] = {name: row[name] for name in row.dtype.names}
    return s


def load_axis(runs):
    """The sweep axis the load varies along: requests.rate when swept, else the first axis whose
    values are all numbers; None when no axis is."""
    axes = list(runs[0]["point"]) if runs else []

    def numeric(axis):
        try:
            return all(math.isfinite(float(r["point"][axis])) for r in runs)
        except ValueError:
            return False

    candidates = [a for a in axes if numeric(a)]
    return "requests.rate" if "requests.rate" in candidates else (candidates[0] if candidates else None)


def served(sets):
    runs = [(name, r) for s, name in zip(sets, results.names(sets)) for r in s["runs"] if "serving" in r]
    if not runs:
        raise SystemExit("placesim plot: no served streams in these files (write one with placesim serve -o)")
    return runs


def plot_latency_load(paths):
    """p99 TTFT and p99 TPOT against the load axis, a line per placer (and per value of the other
    axes, and per file when there are several)."""
    sets = [read(p) for p in paths]
    runs = served(sets)
    axis = load_axis([r for _, r in runs])
    if axis is None:
        raise SystemExit("placesim plot: latency-load needs a numeric sweep axis (requests.rate) to draw along")
    lines = {}
    for name, r in runs:
        rest = " ".join(f"{a}={v}" for a, v in r["point"].items() if a != axis)
        label = " ".join(x for x in (name if len(sets) > 1 else "", r["placer"], rest) if x)
        lines.setdefault(label, []).append((float(r["point"][axis]), r["serving"]))
    fig, (ttft, tpot) = plt.subplots(1, 2, figsize=(10, 4.2))
    for k, (label, pts) in enumerate(lines.items()):
        pts.sort(key=lambda p: p[0])
        x = [p[0] for p in pts]
        style = {"marker": "o", "markersize": 3, "color": f"C{k % 10}", "label": label}
        ttft.plot(x, [p[1]["ttft_p99_s"] for p in pts], **style)
        tpot.plot(x, [p[1]["tpot_p99_s"] for p in pts], **style)
    for ax, what in ((ttft, "TTFT p99 (s)"), (tpot, "TPOT p99 (s)")):
        ax.set_xlabel(axis)
        ax.set_ylabel(what)
        ax.set_yscale("log")
        ax.grid(True, which="both", linewidth=0.3)
    ttft.legend(fontsize=7)
    fig.suptitle(", ".join(results.names(sets)) + ": latency against load", fontsize=10)
    fig.tight_layout()
    return fig


def plot_ttft_cdf(paths):
    """The share of requests whose first token came within t, a panel per sweep point (and file),
    a line per placer."""
    sets = [read(p) for p in paths]
    panels = {}
    for name, r in served(sets):
        point = " ".join(f"{a}={v}" for a, v in r["point"].items()) or "(single point)"
        panels.setdefault(f"{name} {point}" if len(sets) > 1 else point, []).append(r)
    cols = min(3, len(panels))
    rows = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.4 * rows), squeeze=False)
    colour = {p: f"C{k % 10}" for k, p in enumerate(results.placers_in_order(sets))}
    for ax, (title, runs) in zip(axes.flat, panels.items()):
        for r in runs:
            q = [float(v) for v in r["serving"]["ttft_quantiles_s"]]
            if not math.isnan(q[0]):
                ax.plot(q, [k / 100 for k in range(101)], color=colour[r["placer"]], label=r["placer"], drawstyle="steps-post")
        ax.set_xscale("log")
        ax.set_xlabel("time to first token (s)")
        ax.set_ylabel("share of requests")
        ax.set_title(title, fontsize=8)
        ax.grid(True, which="both", linewidth=0.3)
        ax.legend(fontsize=6)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig
