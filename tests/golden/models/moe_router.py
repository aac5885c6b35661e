# Mixture-of-experts layer (Mixtral-style sparse block): a gate linear, softmax in float32,
# torch.topk over experts, renormalised routing weights, an expert mask from F.one_hot, a loop
# over experts that picks its tokens with torch.where (nonzero), runs a SwiGLU expert on them,
# scales by the routing weight and accumulates with index_add_; a dense mask-multiply
# formulation and a nonzero(as_tuple=True) formulation checked against it; tokens per expert
# through torch.bincount; and the Switch-Transformer load-balancing auxiliary loss.
# Weights and inputs are filled from sin(arange) so routing and values are deterministic.
# Runs eagerly, under backend="eager", a counting backend (the sparse loop's torch.where has a
# data-dependent output shape: a graph break), and inductor; also the dense layer compiled
# with fullgraph=True.
# Recorded with PyTorch 2.3.1 (the specification). In both versions the nonzero graph break
# inside the expert loop skips the whole forward frame, which reruns eagerly from its start, so
# the functions it calls compile as frames of their own on the first call: route(),
# Expert.forward, load_balancing_loss(). 2.3 guards a module's forward on the instance
# (ID_MATCH), so each of the 4 experts compiles its own graph; two lines differ under
# PyTorch 2.11, which shares one Expert.forward graph among the instances:
# "counting backend: True True graphs: 4 after 2nd call: 4" (2.3: 6 and 6) and
# "nonzero compiled: True graphs: 3" (2.3: 5).
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class MoEConfig:
    dim: int = 16
    hidden: int = 32
    n_experts: int = 4
    top_k: int = 2
    aux_loss_coef: float = 0.01


class Expert(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


def load_balancing_loss(router_probs, selected, n_experts):
    # f_i: fraction of routing assignments to expert i; P_i: mean router probability.
    one_hot = F.one_hot(selected, num_classes=n_experts).float()  # (tokens, k, E)
    tokens_per_expert = one_hot.sum(dim=1).mean(dim=0)
    prob_per_expert = router_probs.mean(dim=0)
    return n_experts * torch.sum(tokens_per_expert * prob_per_expert)


class SparseMoE(nn.Module):
    def __init__(self, cfg: MoEConfig):
        super().__init__()
        self.cfg = cfg
        self.n_experts = cfg.n_experts
        self.top_k = cfg.top_k
        self.gate = nn.Linear(cfg.dim, cfg.n_experts, bias=False)
        self.experts = nn.ModuleList([Expert(cfg.dim, cfg.hidden) for _ in range(cfg.n_experts)])
        with torch.no_grad():
            for i, (name, p) in enumerate(self.named_parameters()):
                p.copy_((torch.sin(torch.arange(p.numel(), dtype=torch.float32) * (0.7 + 0.05 * i) + i) * 0.3).view(p.shape))

    def route(self, x):
        router_logits = self.gate(x)
        probs = F.softmax(router_logits, dim=1, dtype=torch.float)
        routing_weights, selected = torch.topk(probs, self.top_k, dim=-1)
        routing_weights = routing_weights / routing_weights.sum(dim=-1, keepdim=True)
        return probs, routing_weights.to(x.dtype), selected

    def forward(self, hidden_states):
        batch, seq, dim = hidden_states.shape
        x = hidden_states.view(-1, dim)
        probs, routing_weights, selected = self.route(x)
        final = torch.zeros((batch * seq, dim), dtype=x.dtype, device=x.device)
        expert_mask = F.one_hot(selected, num_classes=self.n_experts).permute(2, 1, 0)
        for e in range(self.n_experts):
            expert = self.experts[e]
            idx, top_x = torch.where(expert_mask[e])
            current = x[None, top_x].reshape(-1, dim)
            current = expert(current) * routing_weights[top_x, idx, None]
            final.index_add_(0, top_x, current.to(x.dtype))
        aux = load_balancing_loss(probs, selected, self.n_experts)
        return final.view(batch, seq, dim), aux

    def forward_dense(self, hidden_states):
        # Every expert on every token, weighted by a dense (tokens, E) gate matrix.
        batch, seq, dim = hidden_states.shape
        x = hidden_states.view(-1, dim)
        probs, routing_weights, selected = self.route(x)
        gates = (F.one_hot(selected, num_classes=self.n_experts) * routing_weights[..., None]).sum(dim=1)
        outs = torch.stack([expert(x) for expert in self.experts], dim=1)  # (tokens, E, dim)
        y = (gates[..., None] * outs).sum(dim=1)
        return y.view(batch, seq, dim), load_balancing_loss(probs, selected, self.n_experts)

    def forward_nonzero(self, hidden_states):
        batch, seq, dim = hidden_states.shape
        x = hidden_states.view(-1, dim)
        probs, routing_weights, selected = self.route(x)
        final = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            token_idx, slot = (selected == e).nonzero(as_tuple=True)
            if token_idx.numel() == 0:
                continue
            w = routing_weights[token_idx, slot].unsqueeze(-1)
            final[token_idx] += expert(x[token_idx]) * w
        return final.view(batch, seq, dim)


cfg = MoEConfig()
print(cfg)
moe = SparseMoE(cfg).eval()
a = torch.arange(2 * 6 * cfg.dim, dtype=torch.float32)
x = (torch.sin(a * 0.13) + 0.5 * torch.cos(a * a * 0.0071)).view(2, 6, cfg.dim)

with torch.no_grad():
    probs, weights, selected = moe.route(x.view(-1, cfg.dim))
print("probs:", tuple(probs.shape), probs.dtype, torch.allclose(probs.sum(-1), torch.ones(12)))
print("weights sum to 1:", torch.allclose(weights.sum(-1), torch.ones(12)), "min > 0:", bool((weights > 0).all()))
print("selected:", selected.tolist())
print("tokens per expert:", torch.bincount(selected.flatten(), minlength=cfg.n_experts).tolist())
print("one_hot counts:", F.one_hot(selected, cfg.n_experts).sum(dim=(0, 1)).tolist())
print("top weight:", round(weights[:, 0].sum().item(), 4))

with torch.no_grad():
    y, aux = moe(x)
    y_dense, aux_dense = moe.forward_dense(x)
    y_nz = moe.forward_nonzero(x)
print("out:", tuple(y.shape), y.dtype, round(y.sum().item(), 4), round(y.abs().max().item(), 4))
print("aux loss:", round(aux.item(), 4), round(cfg.aux_loss_coef * aux.item(), 6))
print("dense matches sparse:", torch.allclose(y_dense, y, atol=1e-5), torch.allclose(aux_dense, aux))
print("nonzero matches sparse:", torch.allclose(y_nz, y, atol=1e-5))

# Unused expert: route everything to experts 0 and 1 by biasing the gate.
with torch.no_grad():
    skewed = SparseMoE(cfg).eval()
    skewed.gate.weight[2:].fill_(-10.0)
    xs = x.abs()
    ys, auxs = skewed(xs)
    yn = skewed.forward_nonzero(xs)
    _, _, sel_s = skewed.route(xs.view(-1, cfg.dim))
print("skewed counts:", torch.bincount(sel_s.flatten(), minlength=cfg.n_experts).tolist(),
      "match:", torch.allclose(ys, yn, atol=1e-5), "aux:", round(auxs.item(), 4))

torch._dynamo.reset()
ce = torch.compile(moe, backend="eager")
with torch.no_grad():
    yc, auxc = ce(x)
print("eager backend:", torch.allclose(yc, y, atol=1e-5), torch.allclose(auxc, aux, atol=1e-6))

torch._dynamo.reset()
graphs = []


def counting(gm, example_inputs):
    graphs.append(len([n for n in gm.graph.nodes if n.op == "call_function"]))
    return gm.forward


cc = torch.compile(moe, backend=counting)
with torch.no_grad():
    yc, auxc = cc(x)
    n_first = len(graphs)
    yc2, _ = cc(x)
print("counting backend:", torch.allclose(yc, y, atol=1e-5), torch.allclose(yc2, y, atol=1e-5),
      "graphs:", n_first, "after 2nd call:", len(graphs))

torch._dynamo.reset()
graphs.clear()
dense_c = torch.compile(moe.forward_dense, backend=counting, fullgraph=True)
with torch.no_grad():
    yd, auxd = dense_c(x)
print("dense fullgraph:", torch.allclose(yd, y_dense, atol=1e-5), torch.allclose(auxd, aux), "graphs:", len(graphs))

torch._dynamo.reset()
graphs.clear()
nz_c = torch.compile(moe.forward_nonzero, backend=counting)
with torch.no_grad():
    ynz = nz_c(x)
print("nonzero compiled:", torch.allclose(ynz, y, atol=1e-5), "graphs:", len(graphs))

torch._dynamo.reset()
ci = torch.compile(moe.forward_dense)
with torch.no_grad():
    yi, auxi = ci(x)
print("inductor dense:", torch.allclose(yi, y_dense, atol=1e-4), torch.allclose(auxi, aux, atol=1e-5))
