#!/usr/bin/python3
"""How often and by how much each placer loses to single-device, from `placesim run ... --json`.

  build/placesim run scenarios/heuristics/NAME.yaml --json -o /tmp/NAME.h5 \
    | scenarios/heuristics/table.py NAME > results/heuristics/NAME.md

A loss is a sweep point where the placer's simulated makespan exceeds single-device's; its size
is makespan / single-device - 1. Predicted vs simulated: mean |predicted - simulated| / simulated.
"""
import json
import math
import sys

doc = json.load(sys.stdin)
NAME = sys.argv[1] if len(sys.argv) > 1 else "random-dags"
COMMAND = (f"build/placesim run scenarios/heuristics/{NAME}.yaml --json -o /tmp/{NAME}.h5 | "
           f"scenarios/heuristics/table.py {NAME} > results/heuristics/{NAME}.md")
base = {}
for r in doc["runs"]:
    if r["placer"] == "single-device" and r["makespan_s"]:
        base[json.dumps(r["point"], sort_keys=True)] = r["makespan_s"]
stats = {}
for r in doc["runs"]:
    if r["placer"] in ("single-device", "critical-path"):
        continue
    s = stats.setdefault(r["placer"], {"n": 0, "lost": 0, "losses": [], "ratios": [], "pred": [], "failed": 0})
    b = base.get(json.dumps(r["point"], sort_keys=True))
    if r["status"] != "ok" or not r["makespan_s"] or not b:
        s["failed"] += 1
        continue
    s["n"] += 1
    ratio = r["makespan_s"] / b
    s["ratios"].append(ratio)
    if ratio > 1 + 1e-9:
        s["lost"] += 1
        s["losses"].append(ratio - 1)
    if r["predicted_s"] is not None:
        s["pred"].append(abs(r["predicted_s"] - r["makespan_s"]) / r["makespan_s"])

print(f"# {doc['scenario']}: placers against single-device\n")
print(f"Made by: `{COMMAND}`\n")
print("| placer | points | loses to single-device | mean loss when losing | worst loss | geomean speed-up | "
      "mean abs prediction error | not ok |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for name, s in sorted(stats.items()):
    geo = math.exp(sum(math.log(1 / x) for x in s["ratios"]) / len(s["ratios"])) if s["ratios"] else float("nan")
    mean_loss = sum(s["losses"]) / len(s["losses"]) if s["losses"] else 0.0
    worst = max(s["losses"], default=0.0)
    pred = sum(s["pred"]) / len(s["pred"]) if s["pred"] else float("nan")
    print(f"| {name} | {s['n']} | {s['lost']} ({100 * s['lost'] / max(s['n'], 1):.0f}%) | {100 * mean_loss:.1f}% | "
          f"{100 * worst:.1f}% | {geo:.3f}x | {100 * pred:.1f}% | {s['failed']} |")
