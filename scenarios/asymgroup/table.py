#!/usr/bin/python3
"""Markdown tables of `placesim run scenarios/asymgroup/<scenario>.yaml --json` (read from stdin).

  build/placesim run scenarios/asymgroup/node-count.yaml --json -o /tmp/nc.h5 \\
    | scenarios/asymgroup/table.py "the command that made it" > results/asymgroup/node-count.md

Per sweep point and placer: the simulated step time, the bytes the busiest GPU sends in the
step (the simulated communication volume, comm_bytes.per_gpu), the part of all bytes that
crosses nodes, and the placer's own account of its choice (its message: k and the groups), or
why it has no time (infeasible: the device whose memory it exceeds).
"""
import json
import sys

doc = json.load(sys.stdin)
command = sys.argv[1] if len(sys.argv) > 1 else None
print(f"# {doc['scenario']}\n")
if command:
    print(f"Made by: `{command}`\n")
print("| point | placer | step ms | busiest GPU sends | inter-node share | choice / status |")
print("|---|---|---:|---:|---:|---|")


def gib(b):
    return f"{b / 2**30:.2f} GiB"


for r in doc["runs"]:
    point = " ".join(f"{k.split('.')[-1]}={v}" for k, v in r["point"].items())
    ms = f"{r['makespan_s'] * 1e3:.3f}" if r["makespan_s"] is not None else "-"
    c = r.get("comm_bytes")
    busiest = gib(max(c["per_gpu"].values())) if c and c["per_gpu"] else "-"
    share = f"{100 * c['inter_node'] / c['total']:.0f}%" if c and c["total"] > 0 else "-"
    note = r["message"] if r["status"] == "ok" else f"{r['status']}: {r['message']}"
    print(f"| {point} | {r['placer']} | {ms} | {busiest} | {share} | {note} |")
