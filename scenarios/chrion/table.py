#!/usr/bin/python3
"""Latency / GPU-memory table of a Chrion sigma sweep, from `placesim run ... --json` on stdin.

  build-placers/placesim run scenarios/chrion/sigma-sweep.yaml --json -o /tmp/s.h5 \
    | scenarios/chrion/sigma_table.py > results/chrion/sigma-sweep.md
"""
import json
import sys

doc = json.load(sys.stdin)
COMMAND = "build-placers/placesim run scenarios/chrion/sigma-sweep.yaml --json -o /tmp/s.h5 | scenarios/chrion/sigma_table.py > results/chrion/sigma-sweep.md"
print(f"# {doc['scenario']}: Chrion's sigma sweep\n")
print("Latency: simulated makespan; predicted: Chrion's own schedule length (its per-core CPU model);")
print("GPU memory: simulated peak on gpu0.\n")
print(f"Made by: `{COMMAND}`\n")
print("| point | placer | k* and booked GPU memory | simulated ms | predicted ms | peak GPU memory MB |")
print("|---|---|---|---:|---:|---:|")
for r in doc["runs"]:
    point = ", ".join(f"{k}={v}" for k, v in r["point"].items()) or "-"
    mem = max((b for d, b in r["peak_mem_bytes"].items() if d.startswith("gpu")), default=0.0)
    sim = r["makespan_s"] * 1e3 if r["makespan_s"] is not None else float("nan")
    pred = r["predicted_s"] * 1e3 if r["predicted_s"] is not None else float("nan")
    print(f"| {point} | {r['placer']} | {r['message']} | {sim:.4f} | {pred:.4f} | {mem / 1e6:.2f} |")
