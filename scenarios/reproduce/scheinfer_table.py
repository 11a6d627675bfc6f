#!/usr/bin/python3
"""The ScheInfer ladder's tables: speed-ups from `placesim run scenarios/reproduce/scheinfer.yaml
--json` on stdin, the thread ablation from scenarios/scheinfer/threads.yaml's JSON (the file
named as the argument). The command is at the top of results/reproduce/scheinfer.md.
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ladder import fmt, header, ms, ratio, read_runs, table, times  # noqa: E402

COMMAND = ("build/placesim run scenarios/scheinfer/threads.yaml --json -o /tmp/reproduce-scheinfer-threads.h5 "
           "> /tmp/reproduce-scheinfer-threads.json && build/placesim run scenarios/reproduce/scheinfer.yaml --json "
           "-o /tmp/reproduce-scheinfer.h5 | scenarios/reproduce/scheinfer_table.py "
           "/tmp/reproduce-scheinfer-threads.json > results/reproduce/scheinfer.md")
RUNGS = [("", "0 (default)", "Table I's fits, every kernel and copy launched from the host at 44 us"),
         (", launch: 0us", "experiment", "kernel launches free")]
MOE = ("mixtral-8x7b", "phimoe")
# ScheInfer's thread ablation: r_CG / (r_CC + r_CG) at r_GG = 0, by CPU threads (section V).
PAPER_RCG = {16: 0.18, 8: 0.25, 4: 0.42, 2: 0.71}

runs = read_runs()
with open(sys.argv[1]) as f:
    threads = read_runs(f)


def point(mem, rung, arch, phase):
    return runs[(f"[{{id: gpu0, memory: {mem}GB{rung}}}]", arch, phase)]


def speedup(p, baseline):
    """The baseline's makespan over ScheInfer's, None where either did not run."""
    return ratio(ms(p[baseline]), ms(p["scheinfer"]))


header(COMMAND, "ScheInfer: the slice-rate solver's gain, rung by rung",
       "ScheInfer's testbed A (section V-A) with 12 or 24 GB of GPU memory, a 1024-token prompt (prefill) and "
       "one token generated after it (decode), ms simulated; the speed-up is the baseline's time over "
       "ScheInfer's. ScheInfer reports 1.69-6.33x in prefill and 1.11-1.80x in decode over its baselines, the "
       "mixture-of-experts models included (section V).")
rows = []
for rung, name, what in RUNGS:
    for mem in (12, 24):
        for arch in ("llama2-70b",) + MOE:
            for phase in ("prefill", "decode"):
                p = point(mem, rung, arch, phase)
                cells = [fmt(ms(p[k]), ".2f", p[k]["status"]) for k in ("scheinfer", "llamacpp-offload", "fiddler")]
                rows.append([name, f"{mem} GB", arch, phase] + cells +
                            [times(speedup(p, "llamacpp-offload")), times(speedup(p, "fiddler"))])
table(["rung", "GPU memory", "model", "phase", "ScheInfer", "llama.cpp", "Fiddler", "over llama.cpp", "over Fiddler"],
      rows, right_from=4)


def span(rung, phases, archs, baseline):
    xs = [speedup(point(m, rung, a, ph), baseline) for m in (12, 24) for a in archs for ph in phases]
    xs = [x for x in xs if x is not None]
    return f"{min(xs):.2f}-{max(xs):.2f}x" if xs else "-"


rows = []
for rung, name, what in RUNGS:
    rows.append([name, what, span(rung, ["prefill"], ("llama2-70b",) + MOE, "llamacpp-offload"),
                 span(rung, ["prefill"], ("llama2-70b",) + MOE, "fiddler"),
                 span(rung, ["decode"], ("llama2-70b",), "fiddler"), span(rung, ["decode"], MOE, "fiddler")])
rows.append(["paper", "measured on testbeds A-C", "1.69-6.33x", "1.69-6.33x", "1.11-1.80x", "1.11-1.80x"])
table(["rung", "assumption", "prefill over llama.cpp", "prefill over Fiddler", "dense decode over Fiddler",
       "MoE decode over Fiddler"], rows)


def copied(run):
    """The median over layers of r_CG / (r_CC + r_CG), ScheInfer's share of the weights kept off the
    GPU that it copies per use."""
    layers = run["choices"]["layers"]
    return statistics.median(l["cg"] / (l["cc"] + l["cg"]) if l["cc"] + l["cg"] > 0 else 0 for l in layers)


print("The thread ablation (scenarios/scheinfer/threads.yaml: LLaMA-2 70B INT4, 24 GB, decode, the CPU's GEMMs on "
      "2 .. 32 threads): the share of the weights off the GPU that ScheInfer copies per use, r_CG / (r_CC + r_CG), "
      "with r_GG held at 0 as the paper's ablation does (`resident: none`).\n")
counts = sorted(int(k[0]) for k in threads if k[1] == "decode")
rows = [["placesim"] + [f"{copied(threads[(str(n), 'decode')]['scheinfer{resident=none}']):.3f}" for n in counts],
        ["paper"] + [str(PAPER_RCG.get(n, "-")) for n in counts]]
table(["", *[f"{n} threads" for n in counts]], rows, right_from=1)


def ahead(rung, phases, archs):
    """Points where ScheInfer is faster than both baselines, and the points where all three ran."""
    ps = [point(m, rung, a, ph) for m in (12, 24) for a in archs for ph in phases]
    ran = [p for p in ps if all(ms(p[k]) is not None for k in ("scheinfer", "llamacpp-offload", "fiddler"))]
    return sum(ms(p["scheinfer"]) < min(ms(p["llamacpp-offload"]), ms(p["fiddler"])) for p in ran), len(ran)


print("## Verdict\n")
print("The paper's orderings at rung 0, points where ScheInfer is ahead of both baselines: "
      + "; ".join(f"{what} {'%d of %d' % ahead('', phases, archs)}" for what, phases, archs in
                  [("prefill", ["prefill"], ("llama2-70b",) + MOE), ("dense decode", ["decode"], ("llama2-70b",)),
                   ("mixture-of-experts decode", ["decode"], MOE)]) + ".\n")
print("Reproduced under the paper's assumptions: partly. Rung 0 is the paper's setup: its testbed and Table I's "
      "fits, every kernel launched from the host at Table I's launch time.\n")
print("* **Prefill and dense decode: the ordering holds**; the spans are below the paper's (it measured three "
      "testbeds and more models and memories; results/scheinfer/testbeds.md has placesim's full grid).")
print("* **Mixture-of-experts decode is reversed against Fiddler, and the launches are not why.** One token's "
      "step is bound by the host's kernel launches (25.59 ms is every placer's all-on-GPU launch bound here), "
      "and ScheInfer slices each active expert into a CPU part and GPU kernels joined after it, more launches "
      "than Fiddler's whole experts; Eq. 5 prices a block with its own launch stream starting free. With "
      "launches free (the experiment) ScheInfer still trails Fiddler where the GPU holds part of the experts "
      "(12 GB): the cost is in the split experts themselves (the CPU slice, the join), which Eq. 5 prices "
      "block by block and the step runs on one CPU and one PCIe link. Which of those it is, no rung separates yet.")
print("* **The experiment also shows a limit of ScheInfer's plans**: with launches free, several prompt plans go "
      "over GPU memory even with no FFN weight resident (infeasible above, the placer says so): the weights "
      "copied per use (CG) are fetched ahead of the kernels that read them and pile up on the GPU, which Eq. 14's "
      "budget, counting two layers' copies in flight, does not bound.")
print("* **Thread ablation: the direction holds, the size does not.** Fewer threads copy more of the off-GPU "
      "weights per use, as in the paper, but placesim copies more at every count. The paper profiled the CPU at "
      "each thread count; the preset scales one Table I fit through a contention curve, so the CPU's rate at "
      "few threads is the likely cause, not yet shown by a rung.")
