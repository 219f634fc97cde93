"""add_custom.profile(): the cost model's view of launches from Python.

Run with:  PYTHONPATH=<build>/python /usr/bin/python3 -m pytest tests/python/test_profile.py -q
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

add_custom = pytest.importorskip("add_custom")


def halves(n, seed=7):
    """n float16 values at the start of their own array with 8 KiB to spare after them. The cost
    model places a NumPy input as the device would place its allocation, at a 512 B boundary, and
    counts a read of a 512 B line an earlier copy of the launch touched as an L2 hit, so two small
    host arrays that malloc placed side by side, sharing a line, would make the estimate depend on
    where they landed."""
    values = np.random.default_rng(seed).uniform(-2, 2, n).astype(np.float16)
    raw = np.empty(values.nbytes + 2 * 4096, np.uint8)
    out = raw[:values.nbytes].view(np.float16)
    out[...] = values
    return out


def test_summary_has_one_dict_per_launch_with_the_documented_keys():
    x, y = halves(8 * 8192), halves(8 * 8192, seed=8)
    with add_custom.profile() as prof:
        add_custom.run_add_custom(x, y, block_dim=8)
        add_custom.run_gelu_custom(x, block_dim=4)
    summary = prof.summary()
    assert [s["kernel"] for s in summary] == ["add_custom", "gelu_custom"]
    add, gelu = summary
    for key in ("kernel", "block_dim", "soc", "estimated_us", "waves", "bound", "pipes"):
        assert key in add
    assert add["block_dim"] == 8 and gelu["block_dim"] == 4
    assert add["soc"] == add_custom.get_soc()["name"]
    assert add["waves"] == 1
    assert add["estimated_us"] > 0
    assert set(add["pipes"]) >= {"MTE2", "V", "MTE3", "S"}
    # Two inputs in, one out: MTE2 moves twice the bytes of MTE3 at the same rate (and holds its
    # pipe longer when its transfers share the core's GM slice with MTE3's).
    assert add["pipes"]["MTE2"] >= 2 * add["pipes"]["MTE3"] * (1 - 1e-9)
    assert add["gm_bytes"] == 3 * x.nbytes
    assert len(add["cores"]) == 8
    assert gelu["pipes"]["V"] > add["pipes"]["V"]  # Exp and Div at 32 elements per cycle


def test_hand_computed_single_tile():
    # One block, one tile of 2048 halves on Ascend910B1 (see tests/cpp/model_profile_test.cpp):
    # MTE2 2 x 4096 B at one core's engine rate (43200 B/us), then 0.02 us DMA latency, one Add
    # of 16 repeats (22 cycles of head, one cycle per repeat plus what UB bank conflicts add) at
    # 1.85 GHz, MTE3 4096 B at 51300 B/us, then 0.02 us latency; Task Duration adds 5 us.
    add_custom.set_soc("Ascend910B1")
    with add_custom.profile() as prof:
        add_custom.run_add_custom(halves(2048), halves(2048, seed=9), block_dim=1)
    s = prof.summary()[0]
    read, write = 4096 / 43200, 4096 / 51300
    add = (22 + 16) / 1850 + s["memory"]["vector_conflict_us"]
    assert s["pipes"]["MTE2"] == pytest.approx(2 * read)
    assert s["pipes"]["V"] == pytest.approx(add)
    assert s["estimated_us"] == pytest.approx(2 * read + 0.02 + add + write + 0.02)
    assert s["task_duration_us"] == pytest.approx(s["estimated_us"] + 5)
    assert s["memory"]["mte2_transfers"] == 2 and s["memory"]["mte3_transfers"] == 1
    assert s["bound"] == "latency"


def test_op_summary_csv_has_msprofs_columns(tmp_path):
    x = halves(8 * 8192)
    with add_custom.profile() as prof:
        add_custom.run_add_custom(x, x, block_dim=8)
    lines = prof.op_summary().splitlines()
    assert len(lines) == 2
    header, row = lines[0].split(","), lines[1].split(",")
    assert header[:8] == ["Op Name", "OP Type", "Task Type", "Task Start Time(us)",
                          "Task Duration(us)", "Task Wait Time(us)", "Block Dim", "Mix Block Dim"]
    values = dict(zip(header, row))
    assert values["Block Dim"] == "8" and values["Task Type"] == "AI_VECTOR_CORE"
    s = prof.summary()[0]
    assert float(values["Task Duration(us)"]) == pytest.approx(s["task_duration_us"], abs=1e-3)
    mte2 = sum(c["busy_us"]["MTE2"] for c in s["cores"]) / 8
    assert float(values["aiv_mte2_time(us)"]) == pytest.approx(mte2, abs=1e-3)
    assert values["aic_mac_time(us)"] == "N/A"
    path = tmp_path / "op_summary.csv"
    prof.save_op_summary(path)
    assert path.read_text() == prof.op_summary()


def test_profile_dir_environment_variable_writes_msprof_files(tmp_path):
    # A child process that knows nothing about profiling: op_summary.csv and the trace appear at
    # its exit in ASCSIM_PROFILE_DIR.
    out = tmp_path / "prof"
    program = ("import numpy as np, add_custom\n"
               "x = np.ones(2 * 8192, np.float16)\n"
               "add_custom.run_add_custom(x, x, block_dim=2)\n")
    env = dict(os.environ, ASCSIM_PROFILE_DIR=str(out))
    env.pop("ASCSIM_TRACE", None)
    r = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    csv = (out / "op_summary.csv").read_text().splitlines()
    assert csv[0].startswith("Op Name,OP Type,Task Type") and csv[1].startswith("add_custom,")
    assert "traceEvents" in (out / "ascsim_trace.json").read_text()
    assert "op_summary.csv" in r.stderr


def test_profiling_does_not_change_results():
    x, y = halves(3 * 8192 + 5), halves(3 * 8192 + 5, seed=3)
    plain = add_custom.run_add_custom(x, y, block_dim=3)
    with add_custom.profile():
        profiled = add_custom.run_add_custom(x, y, block_dim=3)
    np.testing.assert_array_equal(plain.view(np.uint16), profiled.view(np.uint16))


def test_stops_at_exit_of_the_with_block():
    x = halves(4096)
    with add_custom.profile() as prof:
        add_custom.run_gelu_custom(x, block_dim=2)
    add_custom.run_gelu_custom(x, block_dim=2)
    assert not prof.active
    assert len(prof.summary()) == 1


def test_waves_when_block_dim_exceeds_the_cores():
    add_custom.set_soc("Ascend910B1")  # 48 vector cores
    x = halves(96 * 2048)
    with add_custom.profile() as prof:
        add_custom.run_add_custom(x, x, block_dim=96)
    assert prof.summary()[0]["waves"] == 2


def test_str_is_a_table_with_a_line_per_launch():
    x = halves(2 * 8192)
    with add_custom.profile() as prof:
        add_custom.run_add_custom(x, x, block_dim=2)
        add_custom.run_add_custom(x, x, block_dim=1)
    text = str(prof)
    assert "estimate_us" in text and "bound" in text
    assert text.count("add_custom") == 2


def test_save_trace_writes_chrome_trace_events(tmp_path):
    x = halves(4 * 8192)
    with add_custom.profile() as prof:
        add_custom.run_add_custom(x, x, block_dim=4)
    path = tmp_path / "trace.json"
    prof.save_trace(str(path))
    data = json.loads(path.read_text())
    complete = [e for e in data["traceEvents"] if e["ph"] == "X"]
    assert {e["pid"] for e in complete} == {0, 1, 2, 3}
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in data["traceEvents"]
             if e["ph"] == "M" and e["name"] == "thread_name"}
    assert set(names.values()) == {"MTE2", "VECTOR", "MTE3"}  # msprof op simulator's lane names
    adds = [e for e in complete if e["name"] == "Add"]
    for core in range(4):  # each core adds its 8192 elements, in as many tiles as it takes
        assert sum(e["args"]["elements"] for e in adds if e["pid"] == core) == 8192
    # Within one core and pipe, calls never overlap.
    for key in names:
        spans = sorted((e["ts"], e["dur"]) for e in complete if (e["pid"], e["tid"]) == key)
        for (a, da), (b, _) in zip(spans, spans[1:]):
            assert a + da <= b + 1e-3


def test_plot_writes_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    x = halves(4 * 8192)
    with add_custom.profile() as prof:
        add_custom.run_gelu_custom(x, block_dim=4)
    path = tmp_path / "timeline.png"
    fig = prof.plot(str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert path.stat().st_size > 5000
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(l.startswith("MTE2:") for l in labels) and any(l.startswith("VECTOR:") for l in labels)
    assert any("drawn at that width" in l for l in labels)
    # Op names on the bars wide enough to hold them: the GELU's long vector ops are.
    names = {t.get_text() for t in ax.texts}
    ops = {e["name"] for e in json.loads(prof.trace_json())["traceEvents"] if e["ph"] == "X"}
    assert {"Exp", "Div"} <= names <= ops
    words = " ".join(t.get_text() for t in fig.texts)
    assert "Bound by" in words and "To try:" in words


def test_short_vector_ops_stay_visible(tmp_path):
    pytest.importorskip("matplotlib")
    x = halves(48 * 2048)
    with add_custom.profile() as prof:
        add_custom.run_add_custom(x, x, block_dim=48)
    fig = prof.plot(max_cores=2)
    extent = fig.axes[0].get_xlim()[1] / 1.01
    # Every bar, the 2048-element Adds included, is at least 0.3% of the time axis wide (a few
    # pixels at the figure's size) although the Adds take far less of the estimated time.
    bars = [path.vertices[:, 0] for coll in fig.axes[0].collections for path in coll.get_paths()]
    assert bars
    assert min(xs.max() - xs.min() for xs in bars) >= extent * 0.003 * 0.999
    adds = [e for e in prof.summary()[0]["cores"]]
    assert adds


def test_explain_says_what_bounds_each_launch():
    x = halves(48 * 65536)
    with add_custom.profile() as prof:
        add_custom.run_add_custom(x, x, block_dim=48)
        add_custom.run_add_custom(halves(2048), halves(2048), block_dim=1)
    text = prof.explain()
    first, second = text.split("\n\nlaunch 1: ")
    assert first.startswith("launch 0: add_custom on ")
    assert "Bound by GM bandwidth" in first and "Move fewer bytes" in first
    assert "Bound by latency" in second and "double-buffer" in second
    assert ascsim_explain(prof.summary()[1]) in second
    # The cost model's own account, in msprof's terms.
    assert "Task Duration" in first and "aiv_mte2_time" in first and "KB per transfer" in first


def ascsim_explain(entry):
    import ascsim
    return ascsim.explain_bound(entry)


def test_ascsim_trace_environment_variable_traces_an_unmodified_program(tmp_path):
    # A child process that knows nothing about profiling: the trace appears at its exit.
    path = tmp_path / "env_trace.json"
    program = ("import numpy as np, add_custom\n"
               "x = np.ones(2 * 8192, np.float16)\n"
               "add_custom.run_add_custom(x, x, block_dim=2)\n"
               "add_custom.run_gelu_custom(x, block_dim=2)\n")
    env = dict(os.environ, ASCSIM_TRACE=str(path))
    subprocess.run([sys.executable, "-c", program], env=env, check=True, timeout=120)
    data = json.loads(path.read_text())
    kernels = {e["args"]["kernel"] for e in data["traceEvents"] if e["ph"] == "X"}
    assert kernels == {"add_custom", "gelu_custom"}


def test_profile_coexists_with_ascsim_trace(tmp_path):
    path = tmp_path / "both.json"
    program = ("import numpy as np, add_custom\n"
               "x = np.ones(8192, np.float16)\n"
               "with add_custom.profile() as prof:\n"
               "    add_custom.run_add_custom(x, x, block_dim=1)\n"
               "assert len(prof.summary()) == 1\n")
    env = dict(os.environ, ASCSIM_TRACE=str(path))
    subprocess.run([sys.executable, "-c", program], env=env, check=True, timeout=120)
    data = json.loads(path.read_text())
    assert any(e["ph"] == "X" and e["name"] == "Add" for e in data["traceEvents"])


def test_a_plot_of_many_launches_explains_all_and_clips_nothing(tmp_path):
    pytest.importorskip("matplotlib")
    x = halves(4 * 2048)
    with add_custom.profile() as prof:
        for block_dim in (1, 2, 4):  # three configurations of the add
            add_custom.run_add_custom(x, x, block_dim=block_dim)
        add_custom.run_gelu_custom(x, block_dim=4)
        add_custom.run_gelu_custom(x, block_dim=4)  # the same as the one before
        add_custom.run_add_custom(x.astype(np.float32), x.astype(np.float32), block_dim=2)
    fig = prof.plot(str(tmp_path / "many.png"))
    words = " ".join(t.get_text() for t in fig.texts)
    summary = prof.summary()
    assert len(summary) == 6
    # Every kernel and configuration is explained (the two identical GELUs once, counted).
    for s in summary:
        assert f"{s['kernel']} on {s['soc']}, block_dim {s['block_dim']}" in words
    configurations = {(s["kernel"], s["soc"], s["block_dim"]) for s in summary}
    assert len(configurations) == 4  # the float32 add on 2 blocks is like the half one
    assert words.count("Bound by") == 4 and "(2 launches like this one)" in words
    title = fig.axes[0].get_title()
    assert "add_custom" in title and "gelu_custom" in title
    # Nothing drawn outside the figure.
    renderer = fig.canvas.get_renderer()
    box = fig.bbox
    for artist in list(fig.texts) + [fig.axes[0].title]:
        extent = artist.get_window_extent(renderer)
        assert extent.x0 >= box.x0 - 1 and extent.y0 >= box.y0 - 1
        assert extent.x1 <= box.x1 + 1 and extent.y1 <= box.y1 + 1, artist.get_text()[:60]


def test_a_stopped_profile_cannot_be_reentered():
    x = np.ones(4096, np.float32)
    with add_custom.profile() as prof:
        add_custom.run_add_custom(x, x)
    assert len(prof.summary()) == 1
    with pytest.raises(add_custom.InvalidArgumentError, match="stopped"):
        with prof:
            add_custom.run_add_custom(x, x)
    assert len(prof.summary()) == 1


def test_rows_off_512_byte_lines_count_from_the_start_of_the_allocation():
    # Device allocations start on 512 B boundaries; a NumPy input is read in place wherever
    # malloc put it, so the cost model places it as the device would: only a view that starts
    # off its array's 512 B boundary reads rows off 512 B lines.
    n = 48 * 16384
    base = halves(n + 8)
    with add_custom.profile() as prof:
        add_custom.run_add_custom(base[:n], base[:n], block_dim=48)
        add_custom.run_add_custom(base[8:], base[8:], block_dim=48)
    whole, shifted = prof.summary()
    assert whole["memory"]["unaligned_rows"] == 0
    assert whole["memory"]["unaligned_head_bytes"] == 0
    assert whole["memory"]["same_address_bytes"] == 0  # each block reads its own slice, via L2
    # 16 B off: every copy of a 32 KB or smaller tile starts inside a line and runs past it.
    assert shifted["memory"]["unaligned_rows"] == shifted["memory"]["mte2_transfers"]
    assert shifted["memory"]["unaligned_head_bytes"] == 512 * shifted["memory"]["mte2_transfers"]
    assert shifted["estimated_us"] > whole["estimated_us"]
