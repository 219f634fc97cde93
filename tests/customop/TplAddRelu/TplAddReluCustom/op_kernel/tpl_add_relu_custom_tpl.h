// The template parameters of TplAddReluCustom (Tiling模板编程): the data type, the tiles per core
// and whether to apply ReLU. The host tiling turns its choice into the tiling key with
// GET_TPL_TILING_KEY; the build compiles one kernel per selected combination.
#ifndef TPL_ADD_RELU_CUSTOM_TPL_H
#define TPL_ADD_RELU_CUSTOM_TPL_H
#include "ascendc/host_api/tiling/template_argument.h"

ASCENDC_TPL_ARGS_DECL(TplAddReluCustom,
    ASCENDC_TPL_DATATYPE_DECL(D_T, C_DT_FLOAT, C_DT_FLOAT16),
    ASCENDC_TPL_UINT_DECL(TILES, ASCENDC_TPL_2_BW, ASCENDC_TPL_UI_LIST, 1, 2, 4),
    ASCENDC_TPL_BOOL_DECL(RELU, 0, 1));

ASCENDC_TPL_SEL(
    ASCENDC_TPL_ARGS_SEL(
        ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY),
        ASCENDC_TPL_DATATYPE_SEL(D_T, C_DT_FLOAT),
        ASCENDC_TPL_UINT_SEL(TILES, ASCENDC_TPL_UI_LIST, 1, 4),
        ASCENDC_TPL_BOOL_SEL(RELU, 0, 1)),
    ASCENDC_TPL_ARGS_SEL(
        ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY),
        ASCENDC_TPL_DATATYPE_SEL(D_T, C_DT_FLOAT16),
        ASCENDC_TPL_UINT_SEL(TILES, ASCENDC_TPL_UI_LIST, 2),
        ASCENDC_TPL_BOOL_SEL(RELU, 0, 1)));
#endif  // TPL_ADD_RELU_CUSTOM_TPL_H
