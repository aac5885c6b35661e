// SPDX-License-Identifier: MIT
// Convolution through oneDNN's convolution primitive: the image and the result stay in
// PyTorch's (N, C, H, W) layout, oneDNN picks the blocked layouts its kernels run fastest in,
// and reorders go between the two (the weights' included, on every call: nothing here knows
// whether they changed since the last one). Primitives come from oneDNN's own cache.
#include "support/parallel.h"
#include "tensor/conv_backend.h"

#include <oneapi/dnnl/dnnl.hpp>
#include <unordered_map>

namespace kiln::tensor::detail {

namespace {

using dnnl::memory;
using Tag = memory::format_tag;

dnnl::engine& cpuEngine() {
    static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    return engine;
}

/// oneDNN's right padding for PyTorch's output size: the rows the last window needs past the
/// input (at most `padding`, fewer where the floor division dropped a partial window).
int64_t rightPadding(int64_t in, int64_t out, int64_t kernel, const ConvParams& p, int d) {
    return (out - 1) * p.stride[d] + p.dilation[d] * (kernel - 1) + 1 - in - p.padding[d];
}

} // namespace

bool onednnConvolutionFits(const Tensor& out) {
    // Each weight is used once per output position (image and pixel). oneDNN reorders the
    // weights on every call, which pays off only where they are used often enough: measured
    // on ResNet-18's layers, one core, oneDNN was 1.3-2.8x faster from 128 positions per
    // weight (a 7x7 stem: 8192) and 1.7-2x slower at 32 (512 channels at 2x2), with AVX2 and
    // with AVX-512 kernels alike (docs/compiler.md).
    constexpr int64_t kPositionsPerWeight = 64;
    return out.dtype() == DType::Float32 &&
           out.size(0) * out.size(2) * out.size(3) >= kPositionsPerWeight;
}

bool onednnConv2d(const Tensor& x, const Tensor& w, const Tensor* bias, const ConvParams& p,
                  const Tensor& out) {
    configureThreadsForCaller();
    const auto& xs = x.sizes();
    const auto& ws = w.sizes();
    const auto& os = out.sizes();
    const int64_t groups = p.groups;
    const memory::dims src{xs[0], xs[1], xs[2], xs[3]};
    const memory::dims dst{os[0], os[1], os[2], os[3]};
    const memory::dims weights = groups == 1
                                     ? memory::dims{ws[0], ws[1], ws[2], ws[3]}
                                     : memory::dims{groups, ws[0] / groups, ws[1], ws[2], ws[3]};
    const memory::dims strides{p.stride[0], p.stride[1]};
    const memory::dims dilation{p.dilation[0] - 1, p.dilation[1] - 1}; // 0: none
    const memory::dims padLeft{p.padding[0], p.padding[1]};
    const memory::dims padRight{rightPadding(xs[2], os[2], ws[2], p, 0),
                                rightPadding(xs[3], os[3], ws[3], p, 1)};
    const auto f32 = memory::data_type::f32;
    memory::desc userSrc(src, f32, Tag::nchw), userDst(dst, f32, Tag::nchw);
    memory::desc userWeights(weights, f32, groups == 1 ? Tag::oihw : Tag::goihw);
    memory::desc anySrc(src, f32, Tag::any), anyDst(dst, f32, Tag::any);
    memory::desc anyWeights(weights, f32, Tag::any);
    dnnl::engine& engine = cpuEngine();
    dnnl::convolution_forward::primitive_desc pd;
    try {
        const auto prop = dnnl::prop_kind::forward_inference;
        const auto algorithm = dnnl::algorithm::convolution_direct;
        auto desc =
            bias ? dnnl::convolution_forward::desc(prop, algorithm, anySrc, anyWeights,
                                                   memory::desc({ws[0]}, f32, Tag::x), anyDst,
                                                   strides, dilation, padLeft, padRight)
                 : dnnl::convolution_forward::desc(prop, algorithm, anySrc, anyWeights, anyDst,
                                                   strides, dilation, padLeft, padRight);
        pd = dnnl::convolution_forward::primitive_desc(desc, engine);
    } catch (const dnnl::error& e) {
        if (e.status == dnnl_unimplemented) return false;
        throw;
    }
    thread_local dnnl::stream stream(engine);
    // The operand in the layout the primitive wants: the user's memory itself, or a reordered
    // copy of it.
    auto prepared = [&](const memory::desc& wanted, const memory& user) {
        if (wanted == user.get_desc()) return user;
        memory copy(wanted, engine);
        dnnl::reorder(user, copy).execute(stream, const_cast<memory&>(user), copy);
        return copy;
    };
    memory srcUser(userSrc, engine, x.rawData());
    memory weightsUser(userWeights, engine, w.rawData());
    memory dstUser(userDst, engine, out.rawData());
    memory srcMem = prepared(pd.src_desc(), srcUser);
    memory weightsMem = prepared(pd.weights_desc(), weightsUser);
    const bool dstInPlace = pd.dst_desc() == userDst;
    memory dstMem = dstInPlace ? dstUser : memory(pd.dst_desc(), engine);
    std::unordered_map<int, memory> args{
        {DNNL_ARG_SRC, srcMem}, {DNNL_ARG_WEIGHTS, weightsMem}, {DNNL_ARG_DST, dstMem}};
    if (bias) args.emplace(DNNL_ARG_BIAS, memory(pd.bias_desc(), engine, bias->rawData()));
    dnnl::convolution_forward(pd).execute(stream, args);
    if (!dstInPlace) dnnl::reorder(dstMem, dstUser).execute(stream, dstMem, dstUser);
    stream.wait();
    return true;
}

} // namespace kiln::tensor::detail
