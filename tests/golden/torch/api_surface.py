# Every torch, Tensor, nn and F name the design lists is present.
import torch
import torch.nn as nn
import torch.nn.functional as F
import math
names_torch = "tensor zeros ones full empty arange linspace eye randn rand randint zeros_like ones_like full_like empty_like rand_like randn_like randint_like tril triu manual_seed abs neg exp log sqrt rsqrt pow sin cos tan tanh sigmoid erf floor ceil round sign where clamp masked_fill maximum minimum allclose all any sum mean amax amin max min argmax prod var std softmax log_softmax logsumexp cumsum reshape permute transpose t unsqueeze squeeze flatten cat stack split chunk narrow matmul mm bmm addmm einsum no_grad float32 float64 float16 bfloat16 int32 int64 bool device".split()
missing = [n for n in names_torch if not hasattr(torch, n)]
methods = "abs neg exp log sqrt rsqrt pow sin cos tan tanh sigmoid erf floor ceil round sign clamp masked_fill maximum minimum all any sum mean amax amin max min argmax prod var std softmax log_softmax logsumexp cumsum view reshape permute transpose t contiguous unsqueeze squeeze expand flatten split chunk narrow matmul mm bmm addmm size dim numel stride is_contiguous float double half bfloat16 long int bool item tolist to eq ne lt le gt ge add sub mul div".split()
x = torch.ones(2, 3)
missing += ["Tensor." + m for m in methods if not hasattr(x, m)]
attrs = "shape dtype device requires_grad".split()
missing += ["Tensor." + a for a in attrs if not hasattr(x, a)]
mods = "Linear LayerNorm Embedding Dropout GELU ReLU SiLU Sequential ModuleList Softmax Module Parameter".split()
missing += ["nn." + m for m in mods if not hasattr(nn, m)]
fns = "linear layer_norm gelu relu silu softmax log_softmax dropout embedding scaled_dot_product_attention cross_entropy".split()
missing += ["F." + f for f in fns if not hasattr(F, f)]
m = nn.Linear(2, 2)
for meth in "register_buffer parameters to eval train forward named_parameters state_dict".split():
    if not hasattr(m, meth):
        missing.append("Module." + meth)
print("missing:", missing)
print(torch.randint_like(torch.zeros(3), 5).shape)
