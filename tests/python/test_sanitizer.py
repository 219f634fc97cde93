"""The sanitizer from Python: a kernel missing a pipe sync fails with KernelError kind "race"
naming both calls and the missing fix; its corrected twin passes; an uninitialised UB read is
kind "uninitialized read"; the switches (set_sanitize, sanitize(), settings()) apply to kernels
loaded with ascsim.load and restore what they changed."""
import numpy as np
import pytest

import ascsim

# One source, three kernels: the MTE2 -> V flag left out (race), the same kernel with it (clean),
# and a read of UB bytes nothing wrote (init).
SOURCE = r'''
#include "kernel_operator.h"

template <bool WITH_FLAGS>
__aicore__ inline void ScaleTile(GM_ADDR x, GM_ADDR y)
{
    constexpr uint32_t TILE = 64;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + AscendC::GetBlockIdx() * TILE, TILE);
    yGm.SetGlobalBuffer((__gm__ float *)y + AscendC::GetBlockIdx() * TILE, TILE);
    pipe.InitBuffer(buf, TILE * sizeof(float));
    AscendC::LocalTensor<float> local = buf.Get<float>();
    AscendC::DataCopy(local, xGm, TILE);
    if constexpr (WITH_FLAGS) {
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    }
    AscendC::Muls(local, local, 2.0f, TILE);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(yGm, local, TILE);
}

extern "C" __global__ __aicore__ void scale_racy(GM_ADDR x, GM_ADDR y) { ScaleTile<false>(x, y); }
extern "C" __global__ __aicore__ void scale_synced(GM_ADDR x, GM_ADDR y) { ScaleTile<true>(x, y); }

extern "C" __global__ __aicore__ void read_fresh(GM_ADDR y)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    AscendC::GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float *)y, 8);
    pipe.InitBuffer(buf, 8 * sizeof(float));
    AscendC::LocalTensor<float> local = buf.Get<float>();
    AscendC::DataCopy(yGm, local, 8);  // nothing wrote `local`
}
'''


@pytest.fixture(scope="module")
def mod(tmp_path_factory):
    path = tmp_path_factory.mktemp("sanitizer") / "sanitizer_kernels.cpp"
    path.write_text(SOURCE)
    return ascsim.load(str(path), build_dir=str(tmp_path_factory.mktemp("cache")))


def data(blocks=2):
    x = np.arange(64 * blocks, dtype=np.float32)
    return x, np.zeros_like(x)


def test_a_missing_flag_is_a_race_naming_both_pipes_and_the_fix(mod):
    x, y = data()
    with ascsim.sanitize("race"):
        with pytest.raises(ascsim.KernelError) as info:
            mod.scale_racy(x, y, block_dim=2)
    message = str(info.value)
    assert info.value.kind == "race"
    assert message.startswith("scale_racy: block 0/2: race: V Muls")  # lowest block wins
    assert "MTE2 DataCopy GM->UB" in message
    assert "SetFlag/WaitFlag<HardEvent::MTE2_V>" in message


def test_the_corrected_twin_passes_with_every_check(mod):
    x, y = data()
    with ascsim.sanitize("all"):
        mod.scale_synced(x, y, block_dim=2)
    np.testing.assert_array_equal(y, x * 2)


def test_an_uninitialised_read_has_its_own_kind(mod):
    y = np.zeros(8, np.float32)
    with ascsim.sanitize("init"):
        with pytest.raises(ascsim.KernelError) as info:
            mod.read_fresh(y, block_dim=1)
    assert info.value.kind == "uninitialized read"
    assert "nothing wrote since InitBuffer" in str(info.value)


def test_switches_restore_and_off_means_off(mod):
    before = ascsim.get_sanitize()
    x, y = data()
    with ascsim.sanitize(False):
        assert ascsim.get_sanitize() == ""
        mod.scale_racy(x, y, block_dim=2)  # the simulator runs calls in order: right answer
    np.testing.assert_array_equal(y, x * 2)
    assert ascsim.get_sanitize() == before
    with ascsim.settings(sanitize="race,sync") as values:
        assert values["sanitize"] == "race,sync"
        with pytest.raises(ascsim.KernelError):
            mod.scale_racy(x, y, block_dim=2)
    assert ascsim.get_sanitize() == before


def test_findings_on_a_stream_surface_at_synchronize_and_the_stream_stays_usable(mod):
    x, y = data()
    with ascsim.sanitize("race"):
        stream = ascsim.Stream()
        mod.scale_racy(x, y, block_dim=2, stream=stream)
        with pytest.raises(ascsim.KernelError, match="race"):
            stream.synchronize()
        mod.scale_synced(x, y, block_dim=2, stream=stream)
        stream.synchronize()
    np.testing.assert_array_equal(y, x * 2)


def test_an_unknown_check_is_refused_naming_it():
    with pytest.raises(ascsim.InvalidArgumentError, match="racy"):
        ascsim.set_sanitize("racy")
