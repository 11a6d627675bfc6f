#!/usr/bin/python3
"""A Markdown summary of `placesim run ... --json [--timing]` output (read from stdin).

  build/placesim run scenarios/sortinghat/reduced.yaml --json --timing -o /tmp/r.h5 \
    | scenarios/summary.py "the command that made it" > results/sortinghat/reduced.md

Per placer: how many points it placed (by status), its geomean speed-up over the scenario's
baseline, the error of its own prediction against the simulation, (predicted - simulated) /
simulated, as mean |error|, mean signed error and worst |error| over the points it predicted
(n), its largest MILP gap, and its mean placement time (with --timing). A MILP placer that
returns its warm start (the heuristic plan simulated faster) predicts nothing for it; its
message still gives its own plan's model time and simulated time, so a second table gives the
paper model's error on every plan the MILP made, returned or not. Then the simulated makespan
of every point, in milliseconds.
"""
import json
import math
import re
import sys

# finish_milp's message when the warm start is kept (scheduler/placers/milp_support.cpp).
KEPT = re.compile(r"against the MILP plan's ([0-9.e+-]+|inf) s \(its model: ([0-9.e+-]+|nan) s\)")

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
print("| placer | ok | timeout | infeasible | error | geomean speed-up | n | mean abs prediction error | "
      "mean prediction error | worst abs prediction error | worst gap | mean placement time |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for name in placers:
    runs = [r for r in doc["runs"] if r["placer"] == name]
    count = {s: sum(1 for r in runs if r["status"] == s) for s in ("ok", "timeout", "infeasible", "error")}
    speedups = [r["speedup"] for r in runs if r["speedup"]]
    geo = math.exp(sum(math.log(s) for s in speedups) / len(speedups)) if speedups else None
    errors = [r["prediction_error"] for r in runs if r["prediction_error"] is not None]
    gaps = [r["gap"] for r in runs if r.get("gap") is not None]
    times = [r["placement_s"] for r in runs if "placement_s" in r]
    print(f"| {name} | {count['ok']} | {count['timeout']} | {count['infeasible']} | {count['error']} | "
          f"{'-' if geo is None else f'{geo:.3f}x'} | {len(errors)} | "
          f"{pct(sum(abs(e) for e in errors) / len(errors) if errors else None)} | "
          f"{pct(sum(errors) / len(errors) if errors else None)} | "
          f"{pct(max((abs(e) for e in errors), default=None))} | "
          f"{pct(max(gaps, default=None))} | "
          f"{'-' if not times else f'{sum(times) / len(times):.2f} s'} |")


def milp_model_errors(runs):
    """(model - simulated) / simulated of each plan the MILP made, returned or not."""
    out = []
    for r in runs:
        m = KEPT.search(r.get("message") or "")
        if m:
            simulated, model = float(m.group(1)), float(m.group(2))
            if math.isfinite(simulated) and math.isfinite(model) and simulated > 0:
                out.append((model - simulated) / simulated)
        elif r["prediction_error"] is not None:
            out.append(r["prediction_error"])
    return out


milp = [n for n in placers if any(KEPT.search(r.get("message") or "") or r.get("gap") is not None
                                  for r in doc["runs"] if r["placer"] == n)]
if milp:
    print("\n## The MILP's model against the engine, on every plan it made\n")
    print("Whether or not the warm start was returned in the end: (model makespan - simulated) / simulated.\n")
    print("| placer | plans | warm start returned | mean abs error | mean error | worst abs error |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in milp:
        runs = [r for r in doc["runs"] if r["placer"] == name]
        errors = milp_model_errors(runs)
        kept = sum(1 for r in runs if "warm start (" in (r.get("message") or ""))
        print(f"| {name} | {len(errors)} | {kept} | "
              f"{pct(sum(abs(e) for e in errors) / len(errors) if errors else None)} | "
              f"{pct(sum(errors) / len(errors) if errors else None)} | "
              f"{pct(max((abs(e) for e in errors), default=None))} |")

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
