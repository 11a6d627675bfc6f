#!/usr/bin/python3
"""The Chrion ladder's table, from `placesim run scenarios/reproduce/chrion.yaml --json` on stdin.

  build/placesim run scenarios/reproduce/chrion.yaml --json -o /tmp/reproduce-chrion.h5 \\
    | scenarios/reproduce/chrion_table.py > results/reproduce/chrion.md

One row per rung (the sweep's dispatch_on): each policy's simulated latency beside Chrion's own
figures (section 6.2), and the hybrid's change against the GPU alone beside the paper's.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ladder import header, ms, read_runs, table  # noqa: E402

# Chrion section 6.2 at its configuration: the GPU alone, the CPU alone, and its hybrid, ms.
PAPER = {"gpu": 59.3, "cpu": 70.6, "chrion": 52.0}
RUNGS = {
    "device": ("0", "dispatch on the device: each processor pays its ops' framework overhead (the paper's Eq. 2-3)"),
    "host": ("1 (default)", "dispatch on host threads: the runtime model, one thread per processor (parallel) or one in all"),
}
LABELS = {"gpu": "single-device{device=gpu0}", "cpu": "single-device{device=cpu0}", "parallel": "chrion{sigma=0}",
          "sequential": "chrion{sigma=0,executor=sequential}"}

runs = {k[0]: v for k, v in read_runs().items()}

header("build/placesim run scenarios/reproduce/chrion.yaml --json -o /tmp/reproduce-chrion.h5 "
       "| scenarios/reproduce/chrion_table.py > results/reproduce/chrion.md",
       "Chrion: the hybrid's gain, rung by rung",
       "Chrion's configuration (section 6.2), ms simulated; change: (hybrid - GPU alone) / GPU alone. "
       f"Chrion measured {PAPER['gpu']} (GPU), {PAPER['cpu']} (CPU) and {PAPER['chrion']} (hybrid): "
       f"{(PAPER['chrion'] - PAPER['gpu']) / PAPER['gpu'] * 100:+.1f}%.")
rows = []
for key in ("device", "host"):
    rung, what = RUNGS[key]
    r = runs[key]
    gpu = ms(r[LABELS["gpu"]])
    cells = [f"{gpu:.2f}", f"{ms(r[LABELS['cpu']]):.2f}"]
    for v in ("parallel", "sequential"):
        t = ms(r[LABELS[v]])
        cells += [f"{t:.2f}", f"{(t - gpu) / gpu * 100:+.1f}%"]
    rows.append([rung, what] + cells)
rows.append(["paper", "ONNX Runtime as Chrion modified it", PAPER["gpu"], PAPER["cpu"], PAPER["chrion"],
             f"{(PAPER['chrion'] - PAPER['gpu']) / PAPER['gpu'] * 100:+.1f}%", "-", "-"])
table(["rung", "assumption", "GPU alone", "CPU alone", "Chrion, parallel executor", "change", "Chrion, sequential",
       "change"], rows)


def ordering(r, variant):
    """Chrion's ordering: the hybrid faster than the GPU alone, the GPU faster than the CPU."""
    return ms(r[LABELS[variant]]) < ms(r[LABELS["gpu"]]) < ms(r[LABELS["cpu"]])


print("## Verdict\n")
print("The paper's ordering (the hybrid beats the GPU alone, which beats the CPU alone): "
      + "; ".join(f"rung {RUNGS[k][0].split()[0]}: parallel {'yes' if ordering(runs[k], 'parallel') else 'no'}, "
                  f"sequential {'yes' if ordering(runs[k], 'sequential') else 'no'}" for k in ("device", "host")) + ".")
print()
print("Reproduced under the paper's assumptions: partly. The ordering holds at rung 0, the paper's "
      "model; the size of the gain does not, at any rung: with every processor paying its own ops' "
      "dispatch the hybrid divides the framework's overhead among 13 processors, and with one host "
      "thread no split can gain (a CPU op costs the thread its dispatch and its run, more than a GPU "
      "op's dispatch). Chrion's measured -12.3% lies between: part of its executor's per-op work is "
      "serial, and the paper does not say how much (results/chrion/README.md). The fitted figures are "
      "the same at every rung: rung 0's single-device times are not the paper's, because the preset "
      "is fitted with the dispatch on the host.")
