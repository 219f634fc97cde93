"""tbe.common.platform (ascsim stand-in): the SoC queries build scripts make."""
import os

_SOC = {'SOC_VERSION': os.environ.get('ASCSIM_SOC', 'Ascend910B1')}


def _short(soc):
    s = soc.lower()
    for prefix in ('ascend910_93', 'ascend910b', 'ascend310p', 'ascend310b'):
        if s.startswith(prefix):
            return prefix
    return 'ascend910' if s.startswith('ascend910') else s


def set_current_compile_soc_info(soc_version, core_type='AiCore', aicore_num=None, l1_fusion=None):
    _SOC['SOC_VERSION'] = soc_version
    return 'success'


def get_soc_spec(key):
    soc = _SOC['SOC_VERSION']
    if key == 'SOC_VERSION':
        return soc
    if key == 'SHORT_SOC_VERSION':
        return _short(soc).capitalize().replace('Ascend', 'Ascend')
    if key == 'FULL_SOC_VERSION':
        return soc
    if key in ('CUBE_CORE_CNT', 'AICORE_NUM', 'CORE_NUM'):
        return 24 if _short(soc) in ('ascend910b', 'ascend910_93') else 8
    if key == 'VECTOR_CORE_CNT':
        return 48 if _short(soc) in ('ascend910b', 'ascend910_93') else 8
    if key == 'UB_SIZE':
        return 196608 if _short(soc) in ('ascend910b', 'ascend910_93') else 262144
    return ''


def get_soc_version():
    return _SOC['SOC_VERSION']
