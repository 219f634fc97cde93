"""ascsim.profile(): the cost model's view of the launches made inside a ``with`` block."""
from __future__ import annotations

from typing import Any, Dict, List, Optional

from . import _core


class Profile:
    """Profiles the launches made while it is active: the cost model's estimate of each launch on
    the device (time, per-pipe busy time, bound, waves) and a per-core, per-pipe timeline.

        with ascsim.profile() as prof:
            add_custom.run_add_custom(x, y, block_dim=8)
        print(prof)                     # one line per launch
        prof.summary()                  # list of dicts
        print(prof.explain())           # what bounds each launch, and what to try
        prof.save_trace("trace.json")   # Chrome trace: Perfetto / chrome://tracing
        prof.plot("timeline.png")       # matplotlib (extra "plot"), one row per core and pipe

    The profiler is process-wide: while it is active it records the launches of every thread
    and stream of the process, not only those made inside the ``with`` block's thread. A
    stopped profile cannot be re-entered (InvalidArgumentError): start a new one.
    """

    def __init__(self) -> None:
        self._profile = _core.Profile()

    def __enter__(self) -> "Profile":
        # A stopped profile records nothing more: entering it again would silently profile
        # nothing, so it is refused.
        if not self._profile.active:
            raise _core.InvalidArgumentError(
                "ascsim.Profile: this profile was stopped; start a new one with ascsim.profile()")
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def stop(self) -> None:
        """Stop collecting; what was collected stays."""
        self._profile.stop()

    @property
    def active(self) -> bool:
        return self._profile.active

    def summary(self) -> List[Dict[str, Any]]:
        """One dict per launch: kernel, block_dim, soc, estimated_us (device execution time),
        task_duration_us (msprof's Task Duration: the run plus dispatch and end), memory (what
        the memory system did: transfers, bytes, L2 hits, bypassed and written-back bytes, HBM
        busy time, vector time lost to UB bank conflicts), explanation (explain()'s text),
        launch_overhead_us, waves, bound ('GM bandwidth', 'vector', 'scalar' or 'latency'),
        pipes (pipe name -> busy microseconds summed over cores), gm_bytes, wall_us (the
        simulator's own run time), failed, and cores (per block: core, wave, end_us, busy_us and
        utilisation per pipe)."""
        return self._profile.summary()

    def table(self) -> str:
        """The summary as a text table."""
        return self._profile.table()

    def trace_json(self) -> str:
        """The Chrome trace event JSON as a string (pid = core, tid = pipe)."""
        return self._profile.trace_json()

    def save_trace(self, path: str) -> None:
        """Write the Chrome trace event JSON (pid = core, tid = pipe) to `path`."""
        self._profile.save_trace(str(path))

    def op_summary(self) -> str:
        """msprof's op_summary CSV for the launches (Task Duration(us), Block Dim, aiv_*/aic_*
        per-pipe times and ratios, msprof's column names)."""
        return self._profile.op_summary()

    def save_op_summary(self, path: str) -> None:
        """Write msprof's op_summary CSV to `path`."""
        self._profile.save_op_summary(str(path))

    def explain(self, launch: Optional[int] = None) -> str:
        """In words, per launch: what limits the kernel on the device and what to try."""
        from ._plot import explain_bound
        entries = self.summary()
        indices = range(len(entries)) if launch is None else [launch]
        return "\n\n".join(f"launch {i}: " + explain_bound(entries[i]) for i in indices)

    def plot(self, path: Optional[str] = None, max_cores: int = 4,
             launch: Optional[int] = None) -> Any:
        """Draw the estimated timeline of the first `max_cores` cores (one row per core and pipe,
        op names on the bars wide enough to hold them, a legend, and the bound in words) and
        save it to `path` (PNG, SVG, PDF: by extension) when given. `launch` picks one launch by
        index (default: all, one after the other). Returns the matplotlib Figure. Needs
        matplotlib (pip install 'ascsim[plot]')."""
        from ._plot import plot_timeline
        return plot_timeline(self.summary(), self.trace_json(), path=path, max_cores=max_cores,
                             launch=launch)

    def __str__(self) -> str:
        return self.table()

    __repr__ = __str__


def profile() -> Profile:
    """Start profiling launches; use as ``with ascsim.profile() as prof:``. Launches inside
    record their API calls (results are unchanged) and are estimated on the current SoC
    profile."""
    return Profile()
