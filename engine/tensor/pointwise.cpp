// SPDX-License-Identifier: MIT
#include "tensor/ops.h"
