#!/usr/bin/python3
"""How often and by how much each placer loses to the baseline, and how well it predicts itself,
from one or more `placesim run ... --json` documents on stdin (one table each).

  build/placesim run scenarios/heuristics/random-dags.yaml --json -o /tmp/h.h5 \
    | scenarios/heuristics/table.py "the command that made it" > results/heuristics/random-dags.md

A loss is a sweep point where the placer's simulated makespan exceeds the baseline's; its size
is makespan / baseline - 1. Prediction error: |predicted - simulated| / simulated, its mean and
its worst over the points the placer predicted.
"""
import json
import math
import sys


def documents(text):
    """The JSON documents written one after another."""
    decoder = json.JSONDecoder()
    pos = 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos == len(text):
            return
        doc, pos = decoder.raw_decode(text, pos)
        yield doc


def table(doc):
    baseline = doc["baseline"]
    base = {}
    for r in doc["runs"]:
        if r["placer"] == baseline and r["makespan_s"]:
            base[json.dumps(r["point"], sort_keys=True)] = r["makespan_s"]
    stats = {}
    for r in doc["runs"]:
        if r["placer"] in (baseline, "critical-path"):
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

    print(f"## {doc['scenario']}: placers against {baseline}\n")
    print(f"| placer | points | loses to {baseline} | mean loss when losing | worst loss | geomean speed-up | "
          "mean abs prediction error | worst abs prediction error | not ok |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, s in sorted(stats.items()):
        geo = math.exp(sum(math.log(1 / x) for x in s["ratios"]) / len(s["ratios"])) if s["ratios"] else float("nan")
        mean_loss = sum(s["losses"]) / len(s["losses"]) if s["losses"] else 0.0
        worst = max(s["losses"], default=0.0)
        pred = sum(s["pred"]) / len(s["pred"]) if s["pred"] else float("nan")
        worst_pred = max(s["pred"], default=float("nan"))
        print(f"| {name} | {s['n']} | {s['lost']} ({100 * s['lost'] / max(s['n'], 1):.0f}%) | {100 * mean_loss:.1f}% | "
              f"{100 * worst:.1f}% | {geo:.3f}x | {100 * pred:.1f}% | {100 * worst_pred:.1f}% | {s['failed']} |")


docs = list(documents(sys.stdin.read()))
print("# " + ", ".join(d["scenario"] for d in docs) + "\n")
if len(sys.argv) > 1:
    print(f"Made by: `{sys.argv[1]}`\n")
for k, doc in enumerate(docs):
    if k:
        print()
    table(doc)
