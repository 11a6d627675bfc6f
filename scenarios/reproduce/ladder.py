"""What every ladder table script shares: the runs of `placesim run --json` by sweep point and
placer label, and markdown output. Each scenarios/reproduce/<paper>_table.py computes its paper's
headline metric per rung from these and prints results/reproduce/<paper>.md.
"""
import json
import math
import sys


def read_runs(stream=sys.stdin):
    """{tuple of the point's values as text (a numeric axis's 8 as "8"), in the sweep's axis
    order: {placer label: run}}."""
    text = stream.read()
    if not text.strip():  # the placesim before the pipe failed: its error is above
        sys.exit("no runs on standard input: the placesim run --json piped into this printed nothing")
    doc = json.loads(text)
    runs = {}
    for r in doc["runs"]:
        runs.setdefault(tuple(str(v) for v in r["point"].values()), {})[r["placer"]] = r
    return runs


def ms(run):
    """The run's simulated makespan in ms, None when it has none (infeasible, failed)."""
    return None if run.get("makespan_s") is None else run["makespan_s"] * 1e3


def geomean(values):
    values = [v for v in values if v is not None]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def ratio(a, b):
    """a / b, None when either is missing."""
    return None if a is None or b is None else a / b


def fmt(value, spec, missing="-"):
    return missing if value is None else format(value, spec)


def times(value):
    """A ratio as '1.23x', '-' when missing."""
    return "-" if value is None else f"{value:.2f}x"


def header(command, title, intro):
    print(f"`{command}`\n")
    print(f"# {title}\n")
    print(intro + "\n")


def table(columns, rows, right_from=2):
    """A markdown table; columns from `right_from` on are right-aligned (numbers)."""
    print("| " + " | ".join(columns) + " |")
    print("|" + "|".join("---" if i < right_from else "---:" for i in range(len(columns))) + "|")
    for row in rows:
        print("| " + " | ".join(str(c) for c in row) + " |")
    print()
