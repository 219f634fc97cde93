"""Profiler pictures: the estimated per-core, per-pipe timeline, and the bound in words.

matplotlib is an optional dependency (``pip install 'ascsim[plot]'``); it is imported only when
a plot is drawn, through its object API (no pyplot state, no backend switch).
"""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Sequence

# One colour and one line of meaning per pipe, by the trace's lane names (msprof op simulator's:
# VECTOR, SCALAR, CUBE, MTE1, MTE2, MTE3, FIXP).
PIPES = {
    "MTE2": ("#1f77b4", "MTE2: copy GM -> UB (DataCopy in)"),
    "VECTOR": ("#ff7f0e", "VECTOR: vector unit (Add, Exp, Cast, ...)"),
    "MTE3": ("#2ca02c", "MTE3: copy UB -> GM (DataCopy out)"),
    "SCALAR": ("#d62728", "SCALAR: scalar unit (GetValue, SetValue, ...)"),
    "CUBE": ("#9467bd", "CUBE: cube unit"),
    "MTE1": ("#8c564b", "MTE1: copy L1 -> L0"),
    "FIXP": ("#e377c2", "FIXP: fixpipe L0C -> GM"),
}
_OTHER = ("#7f7f7f", "other")

# What bounds a launch (LaunchEstimate::bound), why, and what usually helps.
_ADVICE = {
    "GM bandwidth": (
        "GM bandwidth: the copies between global memory and the Unified Buffer (MTE2 in, MTE3 "
        "out) take the most time, so the kernel runs at the speed of memory.",
        "Move fewer bytes: fuse this kernel with its neighbours so intermediates stay in UB, "
        "use a narrower dtype (float16/bfloat16), and avoid reading the same data twice. More "
        "blocks only help until every core's share of the bandwidth is in use."),
    "vector": (
        "vector: the vector unit is the busiest pipe; the copies keep up with it.",
        "Do less vector work per element: use cheaper ops (Muls instead of Div, one fused op "
        "instead of several), compute in float16 where precision allows, and make each call "
        "cover a whole tile (few large calls rather than many small ones). Spreading the work "
        "over more cores (block_dim up to the vector-core count) divides it."),
    "scalar": (
        "scalar: the scalar unit (element-wise GetValue/SetValue, loop control, address "
        "arithmetic) dominates.",
        "Replace per-element scalar access with vector ops over whole tiles (Duplicate, Select, "
        "Gather, ...), and hoist scalar work out of the inner loops."),
    "cube": (
        "cube: the matrix unit is the busiest pipe.",
        "The kernel is compute-bound on the cube: check the tile shapes keep it fed and that "
        "L1/L0 copies overlap with Mmad."),
    "latency": (
        "latency: no pipe is busy for even half of the kernel's time; fixed costs (DMA latency "
        "of each copy, the waits between dependent stages, launch overhead) dominate.",
        "Give each block more work (larger tiles, fewer blocks for small inputs), double-buffer "
        "(BUFFER_NUM = 2) so copies overlap compute, and batch small launches into one."),
}


def explain_bound(entry: Dict[str, Any]) -> str:
    """One launch's summary dict (Profile.summary()) in words: time, bound, why, what to try."""
    bound = entry.get("bound", "")
    why, advice = _ADVICE.get(bound, (f"{bound}.", "No advice for this bound."))
    total = float(entry.get("estimated_us", 0.0))
    cores = max(1, len(entry.get("cores", [])) or int(entry.get("block_dim", 1)))
    pipes = entry.get("pipes", {})
    # Busy share of each pipe: its busy time per core over the kernel's time.
    shares = ", ".join(
        f"{name} {100.0 * busy / cores / total:.0f}%"
        for name, busy in sorted(pipes.items(), key=lambda kv: -kv[1]) if total > 0 and busy > 0)
    head = (f"{entry.get('kernel', '?')} on {entry.get('soc', '?')}, block_dim "
            f"{entry.get('block_dim', '?')}, {entry.get('waves', 1)} wave(s): estimated "
            f"{total:.2f} us (+ {float(entry.get('launch_overhead_us', 0.0)):.0f} us launch)")
    lines = [head, f"Bound by {why}"]
    if shares:
        lines.append(f"Average busy share per core: {shares}.")
    detail = entry.get("explanation")
    if detail:  # the cost model's own account, in msprof's terms
        lines.append(detail.rstrip())
    lines.append(f"To try: {advice}")
    return "\n".join(lines)


def _spans(events: Sequence[Dict[str, Any]], max_cores: int, launch: Optional[int]):
    names = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
    spans: Dict[tuple, List[tuple]] = {}
    for e in events:
        if e.get("ph") != "X" or e["pid"] >= max_cores:
            continue
        if launch is not None and e["args"].get("launch") != launch:
            continue
        spans.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["dur"], e["name"]))
    return names, spans


def plot_timeline(summary: List[Dict[str, Any]], trace_json: str, path: Optional[str] = None,
                  max_cores: int = 4, launch: Optional[int] = None) -> Any:
    """The timeline figure behind Profile.plot()."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.patches import Patch
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("Profile.plot() needs matplotlib: pip install 'ascsim[plot]' "
                          "(Debian: apt install python3-matplotlib)") from e

    events = json.loads(trace_json)["traceEvents"]
    names, spans = _spans(events, max_cores, launch)
    rows = sorted(spans)
    t0 = min((ts for v in spans.values() for ts, _, _ in v), default=0.0)
    t1 = max((ts + d for v in spans.values() for ts, d, _ in v), default=1.0)
    extent = max(t1 - t0, 1e-9)
    # Short ops (a vector Add of a few hundred cycles next to microsecond copies) would be
    # thinner than a pixel: draw each bar at least this wide so that it stays visible.
    min_width = extent * 0.003

    chosen = summary if launch is None else summary[launch:launch + 1]
    explanation = "\n\n".join(explain_bound(s) for s in chosen[:3])
    n_text_lines = explanation.count("\n") + 1 + sum(
        len(line) // 150 for line in explanation.splitlines())

    width_in, dpi = 13.0, 110
    fig = Figure(figsize=(width_in, 0.42 * len(rows) + 2.0 + 0.17 * n_text_lines), dpi=dpi)
    FigureCanvasAgg(fig)
    text_frac = min(0.6, (0.17 * n_text_lines + 0.3) / fig.get_figheight())
    # Axes on the left; the legend beside them on the right, so that it never hides a bar.
    top = 1.0 - 0.45 / fig.get_figheight()
    ax = fig.add_axes([0.09, text_frac + 0.07, 0.66, top - text_frac - 0.07])

    used = []
    for i, key in enumerate(rows):
        pipe = names.get(key, str(key[1]))
        if pipe not in used:
            used.append(pipe)
        color = PIPES.get(pipe, _OTHER)[0]
        bars = [(ts - t0, max(d, min_width)) for ts, d, _ in spans[key]]
        ax.broken_barh(bars, (i - 0.4, 0.8), facecolors=color, edgecolor="white", linewidth=0.5)

    ax.set_xlim(0, extent * 1.01)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    # Op names on the bars wide enough to hold them (measured in pixels at the figure's size).
    ax_width_px = ax.get_position().width * width_in * dpi
    px_per_us = ax_width_px / (extent * 1.01)
    char_px = 6.0  # ~7 pt sans-serif
    for i, key in enumerate(rows):
        for ts, d, name in spans[key]:
            if max(d, min_width) * px_per_us >= char_px * (len(name) + 1):
                ax.text(ts - t0 + max(d, min_width) / 2, i, name, ha="center", va="center",
                        fontsize=7, color="white", clip_on=True)

    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([f"core {k[0]} {names.get(k, k[1])}" for k in rows])
    ax.set_xlabel("estimated device time since the first call shown (us)")
    kernels = sorted({s["kernel"] for s in chosen})
    socs = sorted({s["soc"] for s in chosen})
    ax.set_title(f"ascsim estimated timeline: {', '.join(kernels)} on {', '.join(socs)} "
                 f"(first {max_cores} cores)")
    ax.grid(axis="x", alpha=0.3)
    handles = [Patch(facecolor=PIPES.get(p, _OTHER)[0], label=PIPES.get(p, (None, p))[1])
               for p in used]
    handles.append(Patch(facecolor="white", edgecolor="gray",
                         label=f"bars under {min_width:.3g} us drawn at that width"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8,
              frameon=False, borderaxespad=0.0)
    fig.text(0.02, text_frac + 0.01, explanation, ha="left", va="top", fontsize=8.5,
             family="sans-serif", wrap=True)
    if path is not None:
        fig.savefig(str(path), dpi=dpi)
    return fig
