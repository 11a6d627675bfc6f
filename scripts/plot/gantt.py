"""A Gantt chart of one simulated run, from its Chrome trace (`placesim run --trace DIR`; format:
sim/trace/chrome_trace.hpp): above, the queues over time, a bar per task coloured by its kind;
below, the links over time, shaded where a direction carries data, darker the closer to that
direction's own busiest rate in the run.

A plan gives each delivery of a weight its own queue ("l3.attn@gpu1"): those are drawn on one
lane per destination ("...@gpu1"), or the chart would have a lane per tensor."""
import json

import matplotlib.pyplot as plt


def lane_of(queue):
    return "...@" + queue.rsplit("@", 1)[1] if "@" in queue else queue


def link_usage(events):
    """{link direction: [(start_us, end_us, rate)]} where the rate is positive: each counter
    sample holds until the track's next one. Links are the counter tracks named "a-b:a->b"."""
    samples = {}
    for e in events:
        if e["ph"] == "C" and "->" in e["name"] and "rate" in e.get("args", {}):
            samples.setdefault(e["name"], []).append((e["ts"], e["args"]["rate"]))
    usage = {}
    for name, series in samples.items():
        series.sort()
        spans = [(t0, t1, v) for (t0, v), (t1, _) in zip(series, series[1:]) if v > 0 and t1 > t0]
        if spans:
            usage[name] = spans
    return usage


def plot(path):
    with open(path) as f:
        events = json.load(f)["traceEvents"]
    queue_name = {e["tid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    order = {e["tid"]: e["args"]["sort_index"] for e in events if e["ph"] == "M" and e["name"] == "thread_sort_index"}
    tasks = [e for e in events if e["ph"] == "X"]
    lanes = []
    for tid in sorted({e["tid"] for e in tasks}, key=lambda t: order.get(t, t)):
        lane = lane_of(queue_name.get(tid, str(tid)))
        if lane not in lanes:
            lanes.append(lane)
    links = link_usage(events)
    link_names = sorted(links)
    fig, (top, bottom) = plt.subplots(
        2, 1, sharex=True, figsize=(10, 1.5 + 0.22 * (len(lanes) + len(link_names))),
        gridspec_kw={"height_ratios": [max(1, len(lanes)), max(1, len(link_names))]})
    bars = {}  # (lane, kind) -> [(start ms, duration ms)]: one collection each draws fast
    for e in tasks:
        lane = lanes.index(lane_of(queue_name.get(e["tid"], str(e["tid"]))))
        bars.setdefault((lane, e.get("cat", "task")), []).append((e["ts"] / 1e3, e["dur"] / 1e3))
    colours = {}
    for (y, kind), spans in bars.items():
        top.broken_barh(spans, (y - 0.4, 0.8), color=colours.setdefault(kind, f"C{len(colours)}"), linewidth=0)
    top.set_yticks(range(len(lanes)))
    top.set_yticklabels(lanes, fontsize=7)
    top.invert_yaxis()
    top.set_ylabel("queues")
    top.legend(handles=[plt.Rectangle((0, 0), 1, 1, color=c) for c in colours.values()], labels=list(colours),
               fontsize=7, loc="upper right")
    for y, name in enumerate(link_names):
        busiest = max(v for _, _, v in links[name])
        spans = [(t0 / 1e3, (t1 - t0) / 1e3) for t0, t1, _ in links[name]]
        shade = [(0.12, 0.47, 0.71, 0.15 + 0.85 * v / busiest) for _, _, v in links[name]]  # C0, rate as alpha
        bottom.broken_barh(spans, (y - 0.4, 0.8), facecolors=shade, linewidth=0)
    bottom.set_yticks(range(len(link_names)))
    bottom.set_yticklabels(link_names, fontsize=7)
    bottom.invert_yaxis()
    bottom.set_ylabel("links")
    bottom.set_xlabel("time (ms)")
    top.set_title(f"{path}: queues and links over time", fontsize=9)
    fig.tight_layout()
    return fig
