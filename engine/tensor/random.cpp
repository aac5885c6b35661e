// SPDX-License-Identifier: MIT
#include "tensor/random.h"
