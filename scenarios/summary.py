#!/usr/bin/python3
"""A Markdown summary of `placesim run ... --json [--timing]` output (read from stdin).

  build/placesim run scenarios/sortinghat/reduced.yaml --json --timing -o /tmp/r.h5 \
    | scenarios/summary.py "the command that made it" > results/sortinghat/reduced.md

Per placer: how many points it placed (by status), its geomean speed-up over the scenario's
baseline, the error of its own prediction against the simulation, (predicted - simulated) /
simulated, as mean |error|, mean signed error and worst |error| over the points it predicted
(n), its largest MILP gap, and its mean placement time (with --timing). A MILP placer returns
the warm start when that simulates faster (it predicts nothing for it), so a second table says,
from each run's `milp` record, where the returned plans came from (`plan_source`: milp or
warm:<placer>), the geomean speed-up of the MILP's own plans, returned or not, and the paper
model's error on each (objective_s against the simulated makespan_s). Then the simulated makespan of every point, in milliseconds, a MILP
placer's cell marked with the warm start it returned, and the MILP's own plan per point.
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


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def mean(xs):
    return sum(xs) / len(xs) if xs else None


print(f"# {doc['scenario']}\n")
if command:
    print(f"Made by: `{command}`\n")
print(f"Baseline: {doc['baseline']}. Prediction error: (predicted - simulated) / simulated.\n")
print("| placer | ok | limit | infeasible | error | geomean speed-up | n | mean abs prediction error | "
      "mean prediction error | worst abs prediction error | worst gap | mean placement time |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for name in placers:
    runs = [r for r in doc["runs"] if r["placer"] == name]
    count = {s: sum(1 for r in runs if r["status"] == s) for s in ("ok", "limit", "infeasible", "error")}
    speedups = [r["speedup"] for r in runs if r["speedup"]]
    geo = geomean(speedups)
    errors = [r["prediction_error"] for r in runs if r["prediction_error"] is not None]
    gaps = [r["gap"] for r in runs if r.get("gap") is not None]
    times = [r["placement_s"] for r in runs if "placement_s" in r]
    print(f"| {name} | {count['ok']} | {count['limit']} | {count['infeasible']} | {count['error']} | "
          f"{'-' if geo is None else f'{geo:.3f}x'} | {len(errors)} | "
          f"{pct(mean([abs(e) for e in errors]))} | {pct(mean(errors))} | "
          f"{pct(max((abs(e) for e in errors), default=None))} | "
          f"{pct(max(gaps, default=None))} | "
          f"{'-' if not times else f'{sum(times) / len(times):.2f} s'} |")


def baseline_makespan(point):
    r = next((r for r in doc["runs"] if r["placer"] == doc["baseline"] and r["point"] == point), None)
    return r["makespan_s"] if r else None


milp = [n for n in placers if any(r.get("milp") for r in doc["runs"] if r["placer"] == n)]
if milp:
    print("\n## What each MILP found\n")
    print("From each run's `milp` record: where the returned plan came from (`plan_source`), then the MILP's "
          "own plan whether returned or not: its geomean speed-up over the baseline (simulated) and its model's "
          "error, (objective - simulated) / simulated.\n")
    print("| placer | runs | plan from milp | plan from warm start | no plan | own plans | own geomean speed-up | "
          "mean abs model error | mean model error |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in milp:
        recs = [(r, r["milp"]) for r in doc["runs"] if r["placer"] == name and r.get("milp")]
        source = [m["plan_source"] for _, m in recs]
        own = [(r, m) for r, m in recs if m["makespan_s"] is not None]
        speedups = [baseline_makespan(r["point"]) / m["makespan_s"] for r, m in own
                    if baseline_makespan(r["point"]) and m["makespan_s"] > 0]
        errors = [(m["objective_s"] - m["makespan_s"]) / m["makespan_s"] for _, m in own
                  if m["objective_s"] is not None and m["makespan_s"] > 0]
        geo = geomean(speedups)
        print(f"| {name} | {len(recs)} | {source.count('milp')} | "
              f"{sum(1 for x in source if x.startswith('warm:'))} | {source.count('none')} | {len(own)} | "
              f"{'-' if geo is None else f'{geo:.3f}x'} | {pct(mean([abs(e) for e in errors]))} | "
              f"{pct(mean(errors))} |")

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
            source = (r.get("milp") or {}).get("plan_source", "milp")
            cells.append(f"{1e3 * r['makespan_s']:.3f}" + ("" if source == "milp" else f" {source}"))
        elif r["predicted_s"] is not None and r["status"] == "ok":
            cells.append(f"({1e3 * r['predicted_s']:.3f})")  # a bound: predicted only
        else:
            cells.append(r["status"])
    label = ", ".join(f"{k}={v}" for k, v in json.loads(key).items())
    print(f"| {label} | " + " | ".join(cells) + " |")

if milp:
    print("\n## The MILP's own plan per point (ms, simulated; returned or not)\n")
    print("| point | " + " | ".join(milp) + " |")
    print("|---|" + "---:|" * len(milp))
    for key in points:
        cells = []
        for name in milp:
            r = next((r for r in doc["runs"] if r["placer"] == name and json.dumps(r["point"]) == key), None)
            m = r.get("milp") if r else None
            if not m:
                cells.append("")
            elif m["makespan_s"] is None:
                cells.append("no plan")
            else:
                cells.append(f"{1e3 * m['makespan_s']:.3f}")
        label = ", ".join(f"{k}={v}" for k, v in json.loads(key).items())
        print(f"| {label} | " + " | ".join(cells) + " |")
