#!/usr/bin/python3
"""A Markdown summary of `placesim run ... --json [--timing]` output (read from stdin).

  build/placesim run scenarios/sortinghat/reduced.yaml --json --timing -o /tmp/r.h5 \
    | scenarios/summary.py "the command that made it" > results/sortinghat/reduced.md

Per placer: how many points it placed (by status), its geomean speed-up over the scenario's
baseline, the error of its own prediction against the simulation, (predicted - simulated) /
simulated, as mean |error|, mean signed error and worst |error| (the modelling error of the
paper's model, where the placer has one), its largest MILP gap, and its mean placement time
(with --timing). Then the simulated makespan of every point, in milliseconds.
"""
import json
import math
import sys

doc = json.load(sys.stdin)
command = sys.argv[1] if len(sys.argv) > 1 else None
placers = []
for r in doc["runs"]:
    if r["placer"] not in placers:
        placers.append(r["placer"])


def pct(x):
    return "-" if x is None else f"{100 * x:.1f}%"


print(f"# {doc['scenario']}\n")
if command:
    print(f"Made by: `{command}`\n")
print(f"Baseline: {doc['baseline']}. Prediction error: (predicted - simulated) / simulated.\n")
print("| placer | ok | timeout | infeasible | error | geomean speed-up | mean abs prediction error | "
      "mean prediction error | worst abs prediction error | worst gap | mean placement time |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for name in placers:
    runs = [r for r in doc["runs"] if r["placer"] == name]
    count = {s: sum(1 for r in runs if r["status"] == s) for s in ("ok", "timeout", "infeasible", "error")}
    speedups = [r["speedup"] for r in runs if r["speedup"]]
    geo = math.exp(sum(math.log(s) for s in speedups) / len(speedups)) if speedups else None
    errors = [r["prediction_error"] for r in runs if r["prediction_error"] is not None]
    gaps = [r["gap"] for r in runs if r.get("gap") is not None]
    times = [r["placement_s"] for r in runs if "placement_s" in r]
    print(f"| {name} | {count['ok']} | {count['timeout']} | {count['infeasible']} | {count['error']} | "
          f"{'-' if geo is None else f'{geo:.3f}x'} | "
          f"{pct(sum(abs(e) for e in errors) / len(errors) if errors else None)} | "
          f"{pct(sum(errors) / len(errors) if errors else None)} | "
          f"{pct(max((abs(e) for e in errors), default=None))} | "
          f"{pct(max(gaps, default=None))} | "
          f"{'-' if not times else f'{sum(times) / len(times):.2f} s'} |")

print("\n## Simulated makespan per point (ms; status where there is none)\n")
print("| point | " + " | ".join(placers) + " |")
print("|---|" + "---:|" * len(placers))
points = []
for r in doc["runs"]:
    key = json.dumps(r["point"])
    if key not in points:
        points.append(key)
for key in points:
    cells = []
    for name in placers:
        r = next((r for r in doc["runs"] if r["placer"] == name and json.dumps(r["point"]) == key), None)
        if r is None:
            cells.append("")
        elif r["makespan_s"] is not None:
            cells.append(f"{1e3 * r['makespan_s']:.3f}")
        elif r["predicted_s"] is not None and r["status"] == "ok":
            cells.append(f"({1e3 * r['predicted_s']:.3f})")  # a bound: predicted only
        else:
            cells.append(r["status"])
    label = ", ".join(f"{k}={v}" for k, v in json.loads(key).items())
    print(f"| {label} | " + " | ".join(cells) + " |")
