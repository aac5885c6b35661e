// SPDX-License-Identifier: MIT
/// \file
/// Internal to the decompose pass: what the rule files share (helpers that build composite ops,
/// and the functions that register each file's rules).
#pragma once

#include "compiler/decompose_context.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace kiln::compiler::rules {

using R = std::optional<int32_t>;
using tensor::DType;
using RuleTable = std::unordered_map<std::string, DecompositionRule>;
using TupleRuleTable = std::unordered_map<std::string, TupleDecompositionRule>;

/// The dtype a float op on `t` computes in (float32 for integer inputs).
DType floatOf(DType t);
/// The dtype a Python number next to tensor `t` takes part in an op as.
DType numberTypeFor(AtenBuilder& b, std::optional<int32_t> t, bool floatNumber);
/// The two operands of a binary op, Python numbers typed against the tensor operand.
bool operands(OpCall& c, const char* first, const char* second, int32_t& a, int32_t& b);
int32_t sigmoidOf(AtenBuilder& b, int32_t x);
int32_t geluOf(AtenBuilder& b, int32_t x, bool tanhApprox);
int32_t softmaxOf(AtenBuilder& b, int32_t x, int64_t dim, bool logarithm);
int32_t layerNormOf(AtenBuilder& b, int32_t x, size_t normalizedDims, std::optional<int32_t> w,
                    std::optional<int32_t> bias, double eps);
/// The mean of x over dims: the sum divided by their element count.
int32_t meanOf(AtenBuilder& b, int32_t x, const std::vector<int64_t>& dims, bool keepdim);
R identityRule(OpCall& c);
R castRule(OpCall& c, DType dtype);
R toRule(OpCall& c);
R geluRule(OpCall& c, bool module);
R dropoutRule(OpCall& c);
/// torch.rand/randn(*size) (normal: randn) and rand_like/randn_like(x).
R randomRule(OpCall& c, bool normal);
R randomLikeRule(OpCall& c, bool normal);

void addPointwiseRules(RuleTable& t);
void addReductionRules(RuleTable& t);
void addShapeRules(RuleTable& t);
void addMatmulRules(RuleTable& t);
void addModuleRules(RuleTable& t);
void addCreationRules(RuleTable& t);
void addConvolutionRules(RuleTable& t);
/// The losses, as functions (mse_loss, ...) and as modules (MSELoss, ...): decompose_losses.cpp.
void addLossRules(RuleTable& t);
void addTupleShapeRules(TupleRuleTable& t);
void addTupleReductionRules(TupleRuleTable& t);

} // namespace kiln::compiler::rules
