#!/usr/bin/python3
"""Markdown tables of `placesim run scenarios/asymgroup/<scenario>.yaml --json` (read from stdin).

  build/placesim run scenarios/asymgroup/node-count.yaml --json -o /tmp/nc.h5 \\
    | scenarios/asymgroup/table.py "the command that made it" > results/asymgroup/node-count.md

Per sweep point and placer: the simulated time (a step's, or for a whole generation the time to
first token, the time per output token and the end-to-end latency), the bytes the busiest GPU
sends (the simulated communication volume, comm_bytes.per_gpu; a generation's summed over its
steps), the part of all bytes that crosses nodes, and the placer's own account of its choice (its
message: k and the groups), or why it has no time (infeasible: the device whose memory it
exceeds).
"""
import json
import sys

doc = json.load(sys.stdin)
command = sys.argv[1] if len(sys.argv) > 1 else None
print(f"# {doc['scenario']}\n")
if command:
    print(f"Made by: `{command}`\n")
generation = any(r.get("ttft_s") is not None or r.get("generation") for r in doc["runs"])
times = "TTFT s | TPOT ms | end-to-end s" if generation else "step ms"
print(f"| point | placer | {times} | busiest GPU sends | inter-node share | choice / status |")
print(f"|---|---|{'---:|' * (3 if generation else 1)}---:|---:|---|")


def gib(b):
    return f"{b / 2**30:.2f} GiB"


for r in doc["runs"]:
    point = " ".join(f"{k.split('.')[-1]}={v}" for k, v in r["point"].items())
    def num(v, scale, digits):
        return f"{v * scale:.{digits}f}" if v is not None else "-"
    if generation:
        ms = " | ".join([num(r.get("ttft_s"), 1, 3), num(r.get("tpot_s"), 1e3, 3), num(r["makespan_s"], 1, 3)])
    else:
        ms = num(r["makespan_s"], 1e3, 3)
    c = r.get("comm_bytes")
    busiest = gib(max(c["per_gpu"].values())) if c and c["per_gpu"] else "-"
    share = f"{100 * c['inter_node'] / c['total']:.0f}%" if c and c["total"] > 0 else "-"
    note = r["message"] if r["status"] == "ok" else f"{r['status']}: {r['message']}"
    print(f"| {point} | {r['placer']} | {ms} | {busiest} | {share} | {note} |")
